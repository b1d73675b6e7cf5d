import type { Services } from "../services.ts";
import { UniqueViolation, type Db } from "../db/db.ts";
import { insertEvent } from "../events/events.store.ts";
import type { StreamName } from "../events/streams.ts";

// An event stored in the same transaction as the work it reports (a send's queued deliveries),
// so that the stream never says something happened that did not, or the reverse. Announced on
// the bus once committed, as EventLog.append does.

/**
 * Runs `work` and, when it answers true, stores `event` as the stream's next event and runs
 * `after` with its seq, all in one transaction; the seq, or null when `work` declined.
 */
export async function appendInTransaction(
  services: Services,
  accountId: number,
  stream: StreamName,
  event: object,
  work: (tx: Db) => Promise<boolean>,
  after?: (tx: Db, seq: number) => Promise<void>,
): Promise<number | null> {
  const json = JSON.stringify(event);
  for (let attempt = 0; ; attempt++) {
    try {
      const seq = await services.db.transaction(async (tx) => {
        if (!(await work(tx))) return null;
        const seq = await insertEvent(tx, accountId, stream, json, services.config.streamCap);
        await after?.(tx, seq);
        return seq;
      });
      if (seq !== null) await services.bus.publish({ accountId, stream, seq });
      return seq;
    } catch (error) {
      // Two PostgreSQL processes may pick the same next seq; the loser runs the whole again.
      if (!(error instanceof UniqueViolation) || attempt >= 10) throw error;
    }
  }
}
