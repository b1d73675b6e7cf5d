import { useStreamStore, type StreamType } from "../../lib/streams/stream-store.ts";

/** The number of messages held for a stream, for the drawer badges. */
export function useStreamCount(type: StreamType): number {
  return useStreamStore(type, (state) => state.messages.length);
}
