// cattle_grid's `combined` stream: incoming and outgoing in one, each event with its history_id.
// It follows both streams (two watches of the event log, each sharing its reads as usual) and
// interleaves them as they arrive. A frame's SSE id is where the reader stands in both streams,
// `<incoming id>.<outgoing id>`, so that a reconnect with Last-Event-ID resumes each exactly; the
// history_id in the data names the event itself, as history does (history-id.ts).

import type { EventLog, StoredEvent, Watch } from "./event-log.ts";
import { historyId } from "./history-id.ts";
import { combinedStreams } from "./history.ts";

export interface Frame {
  id: string;
  data: string;
}
export type CombinedPosition = Record<(typeof combinedStreams)[number], number>;

/** The position a Last-Event-ID names, or null (then: from now on). */
export function parseCombinedId(text: string | undefined): CombinedPosition | null {
  const match = /^(\d{1,15})\.(\d{1,15})$/.exec(text ?? "");
  return match ? { incoming: Number(match[1]), outgoing: Number(match[2]) } : null;
}

const formatId = (p: CombinedPosition) => `${p.incoming}.${p.outgoing}`;

/** The event as the combined stream sends it: its history_id filled in. */
export function withHistoryId(row: StoredEvent, stream: "incoming" | "outgoing"): string {
  const event = JSON.parse(row.data) as Record<string, unknown>;
  event.history_id = historyId(row.createdAt, stream, row.seq);
  return JSON.stringify(event);
}

export async function watchCombined(
  events: EventLog,
  accountId: number,
  after: CombinedPosition | null,
  handlers: { onFrames(frames: Frame[]): void; onError(error: unknown): void },
): Promise<{ start: string; close(): void }> {
  const position: CombinedPosition = { incoming: 0, outgoing: 0 };
  // Rows that come before both watches have said where they start wait for it.
  let waiting: Array<[stream: "incoming" | "outgoing", rows: StoredEvent[]]> | null = [];
  const take = (stream: "incoming" | "outgoing", rows: StoredEvent[]) => {
    const frames = rows.map((row) => {
      position[stream] = row.seq;
      return { id: formatId(position), data: withHistoryId(row, stream) };
    });
    if (frames.length > 0) handlers.onFrames(frames);
  };
  const watches: Watch[] = [];
  let failed = false;
  const onError = (error: unknown) => {
    if (failed) return;
    failed = true;
    for (const watch of watches) watch.close();
    handlers.onError(error);
  };
  try {
    for (const stream of combinedStreams) {
      watches.push(
        await events.watch(accountId, stream, after?.[stream] ?? null, {
          onRows: (rows) => (waiting ? waiting.push([stream, rows]) : take(stream, rows)),
          onError,
        }),
      );
    }
  } catch (error) {
    for (const watch of watches) watch.close();
    throw error;
  }
  position.incoming = watches[0]!.start;
  position.outgoing = watches[1]!.start;
  const start = formatId(position);
  const early = waiting;
  waiting = null;
  // Handed on before the watch is returned, as a single stream's watch may: the caller holds
  // them until it has sent its opening frames.
  for (const [stream, rows] of early) take(stream, rows);
  return {
    start,
    close: () => {
      for (const watch of watches) watch.close();
    },
  };
}
