import type { StreamType } from "../../lib/streams/stream-store.ts";

/** The drawer's names for the streams, also the labels of messages on "All". */
export const STREAM_LABELS: Record<StreamType, string> = {
  incoming: "Incoming",
  outgoing: "Outgoing",
  error: "Error",
};
