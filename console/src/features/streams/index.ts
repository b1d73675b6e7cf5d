// The hooks the layout needs on every screen; the pages themselves load lazily from stream-page.tsx.
export { useStreamConnections } from "./use-stream-connections.ts";
export { useStreamCount } from "./use-stream-count.ts";
