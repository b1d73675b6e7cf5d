// The account's streams as a client sees them: Server-Sent Events over HTTP, nothing read from
// the database directly.

import { openSse, type SseConnection } from "../sse.ts";

// Events are arbitrary JSON; tests reach into them freely and let the assertions do the checking.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Event = Record<string, any>;

export interface StreamWatch extends SseConnection {
  /** Every event received so far, parsed. */
  events(): Event[];
  /** Resolves with the first event satisfying `match` (fails after `timeoutMs`). */
  next(match: (event: Event) => boolean, timeoutMs?: number): Promise<Event>;
}

/**
 * Opens /fe/account/stream/NAME and waits until the server says it is connected. `fromStart`
 * asks for every stored event (Last-Event-ID: 0), else only what happens from now on.
 */
export async function watchStream(
  url: string,
  token: string,
  stream: "incoming" | "outgoing" | "error",
  options: { fromStart?: boolean } = {},
): Promise<StreamWatch> {
  const headers: Record<string, string> = { Authorization: `Bearer ${token}` };
  if (options.fromStart) headers["Last-Event-ID"] = "0";
  const connection = await openSse(`${url}/fe/account/stream/${stream}`, headers);
  if (connection.status !== 200) throw new Error(`stream ${stream} answered ${connection.status}`);
  await connection.waitFor((frame) => frame.comment === "connected");
  const events = () =>
    connection.frames.filter((f) => f.data !== undefined).map((f) => JSON.parse(f.data!) as Event);
  return {
    ...connection,
    events,
    async next(match, timeoutMs = 10_000) {
      const frame = await connection.waitFor(
        (f) => f.data !== undefined && match(JSON.parse(f.data) as Event),
        timeoutMs,
      );
      return JSON.parse(frame.data!) as Event;
    },
  };
}
