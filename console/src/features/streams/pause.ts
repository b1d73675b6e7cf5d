// "Pause" freezes the list: what was held when it was pressed stays listed, everything that
// arrives after is held and counted ("N new") but not listed until "Resume". Nothing is copied:
// the new messages are recognised by their seq, above the last seq each stream had at the pause.
import type { StreamMessage, StreamType } from "../../lib/stream-store.ts";

/** The last seq of each stream among the listed messages: the pause's dividing line. */
export type PauseMarks = ReadonlyMap<StreamType, number>;

export function marksAt(messages: readonly StreamMessage[]): PauseMarks {
  const marks = new Map<StreamType, number>();
  for (const message of messages) {
    marks.set(message.stream, Math.max(marks.get(message.stream) ?? -1, message.seq));
  }
  return marks;
}

export type PauseSplit = { frozen: readonly StreamMessage[]; newCount: number };

/**
 * Splits the live messages at the marks. `previous` is returned again when the frozen part has
 * not changed (nothing dropped, no reset), so the list does not re-render for every batch.
 */
export function splitAtPause(
  live: readonly StreamMessage[],
  marks: PauseMarks,
  previous?: PauseSplit,
): PauseSplit {
  const isNew = (message: StreamMessage) => message.seq > (marks.get(message.stream) ?? -1);
  let newCount = 0;
  for (const message of live) if (isNew(message)) newCount++;
  const oldCount = live.length - newCount;
  if (
    previous &&
    previous.frozen.length === oldCount &&
    (oldCount === 0 || previous.frozen[0] === live.find((m) => !isNew(m)))
  ) {
    return previous.newCount === newCount ? previous : { frozen: previous.frozen, newCount };
  }
  return { frozen: live.filter((message) => !isNew(message)), newCount };
}
