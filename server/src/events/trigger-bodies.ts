import type { Db } from "../db/db.ts";
import { findTriggerBodies } from "../db/triggers.store.ts";
import type { StoredEvent } from "../db/events.store.ts";

// Error events of a trigger are stored without `original_message_body` (report-error.ts): the
// body lives once, in the trigger's row. A reader of the log (readAfter) gets each event whole.
// An event stream sends it once per trigger and connection (issue 25: 2,000 refused recipients
// of a 0.1 MB body were 22.8 MB on every open stream): the first error event of a trigger on a
// connection carries the body where cattle_grid's ErrorMessage has it; the later ones leave it
// out and name the trigger by `trigger_id`, as every event of a trigger does.

/** Every bodiless trigger error event, whole. */
export function fillTriggerBodies(db: Db, rows: StoredEvent[]): Promise<StoredEvent[]> {
  return fill(db, rows, () => true);
}

/** Trigger ids whose body one connection has sent, the newest `limit` of them. */
export class SentBodies {
  private readonly ids = new Set<string>();
  private readonly limit: number;
  constructor(limit = 10_000) {
    this.limit = limit;
  }
  has(id: string): boolean {
    return this.ids.has(id);
  }
  add(id: string): void {
    this.ids.delete(id);
    this.ids.add(id);
    if (this.ids.size > this.limit) this.ids.delete(this.ids.values().next().value!);
  }
}

/** The body goes into the first error event of each trigger this connection has not yet had it for. */
export function fillFirstTriggerBodies(
  db: Db,
  rows: StoredEvent[],
  sent: SentBodies,
): Promise<StoredEvent[]> {
  return fill(db, rows, (id) => {
    if (sent.has(id)) return false;
    sent.add(id);
    return true;
  });
}

async function fill(
  db: Db,
  rows: StoredEvent[],
  wanted: (triggerId: string) => boolean,
): Promise<StoredEvent[]> {
  const parsed = new Map<number, Record<string, unknown>>();
  for (const [index, row] of rows.entries()) {
    // Cheap test first: most events are not a trigger's bodiless error.
    if (row.data.includes('"original_message_body"') || !row.data.includes('"trigger_id":"'))
      continue;
    const event = JSON.parse(row.data) as Record<string, unknown>;
    if (
      typeof event.trigger_id === "string" &&
      !("original_message_body" in event) &&
      wanted(event.trigger_id)
    )
      parsed.set(index, event);
  }
  if (parsed.size === 0) return rows;
  const ids = [...new Set([...parsed.values()].map((e) => e.trigger_id as string))];
  const bodies = await findTriggerBodies(db, ids);
  return rows.map((row, index) => {
    const event = parsed.get(index);
    if (!event) return row;
    const { message, routing_key, ...rest } = event;
    const body = bodies.get(event.trigger_id as string) ?? "";
    const whole = { message, routing_key, original_message_body: body, ...rest };
    return { ...row, data: JSON.stringify(whole) };
  });
}
