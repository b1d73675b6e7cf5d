// One message of a stream as the console holds it, and the stream types. Its own module so that
// stream-search.ts and stream-store.ts, which imports it, both take them from here.

export const STREAM_TYPES = ["incoming", "outgoing", "error"] as const;
export type StreamType = (typeof STREAM_TYPES)[number];

export type StreamMessage = {
  stream: StreamType;
  seq: number;
  id: string | null;
  data: unknown;
  activityType: string | null;
  /** When the browser received it (ms since the epoch); null for rows stored before we kept it. */
  receivedAt: number | null;
};
