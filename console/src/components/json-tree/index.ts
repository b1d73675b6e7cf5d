export { JsonTree } from "./json-tree.tsx";
export { isLookupUrl } from "./lookup-url.ts";
