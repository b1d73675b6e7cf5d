export { AllStreamsPage, StreamPage } from "./stream-page.tsx";
export { useStreamConnections } from "./use-stream-connections.ts";
export { useStreamCount } from "./use-stream-count.ts";
