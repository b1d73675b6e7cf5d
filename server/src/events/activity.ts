import type { Db } from "../db/db.ts";
import { countEventsPerMinute } from "../db/events.store.ts";
import { streamNames, type StreamName } from "./streams.ts";

const isStreamName = (name: string): name is StreamName =>
  (streamNames as readonly string[]).includes(name);

// An account's traffic per minute, for the console's activity chart: incoming, outgoing and
// error events by the minute they were stored, oldest first, minutes without any as zeros.

export interface ActivityMinute {
  at: string;
  incoming: number;
  outgoing: number;
  error: number;
}

export async function activityPerMinute(
  db: Db,
  accountId: number,
  minutes: number,
  now = Date.now(),
): Promise<ActivityMinute[]> {
  const last = Math.floor(now / 60_000);
  const first = last - minutes + 1;
  const series: ActivityMinute[] = Array.from({ length: minutes }, (_, i) => ({
    at: new Date((first + i) * 60_000).toISOString(),
    incoming: 0,
    outgoing: 0,
    error: 0,
  }));
  for (const row of await countEventsPerMinute(db, accountId, first * 60_000)) {
    const entry = series[row.minute - first];
    if (entry && isStreamName(row.stream)) entry[row.stream] += row.count;
  }
  return series;
}
