import type { Db } from "../db/db.ts";
import { findTriggerBodies } from "../triggers/triggers.store.ts";
import type { StoredEvent } from "../db/events.store.ts";

// Error events of a trigger are stored without `original_message_body` (report-error.ts): the
// body lives once, in the trigger's row. Reading puts it back where cattle_grid's ErrorMessage
// has it, so a frame on the wire is whole.

export async function fillTriggerBodies(db: Db, rows: StoredEvent[]): Promise<StoredEvent[]> {
  const parsed = new Map<number, Record<string, unknown>>();
  for (const [index, row] of rows.entries()) {
    // Cheap test first: most events are not a trigger's bodiless error.
    if (row.data.includes('"original_message_body"') || !row.data.includes('"trigger_id":"'))
      continue;
    const event = JSON.parse(row.data) as Record<string, unknown>;
    if (typeof event.trigger_id === "string" && !("original_message_body" in event))
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
