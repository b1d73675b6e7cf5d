import { getLogger } from "@logtape/logtape";
import type { Services } from "../services.ts";
import type { Db } from "../db/db.ts";
import { scheduleSearchIndexing } from "../db/event-search.store.ts";
import { appendEvents, pruneEvents } from "../db/events.store.ts";
import { withMeta } from "../events/event-meta.ts";
import { eventJson } from "../events/fit-event.ts";
import type { StreamName } from "../events/streams.ts";
import { timeEventAppend } from "../metrics/observe.ts";

const log = getLogger(["corral", "events"]);

// An event stored in the same transaction as the work it reports (a send's queued deliveries),
// so that the stream never says something happened that did not, or the reverse. Its seq comes
// from the stream's counter row, as EventLog.append's do (docs/adr/0008); it is announced on
// the bus once committed, and old events are pruned outside the transaction, as append does.

// Every this many events of a stream, the ones beyond the cap are deleted.
const PRUNE_EVERY = 100;

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
  const appended = withMeta(eventJson(event), event);
  const stopTimer = timeEventAppend(services, stream);
  const seq = await services.db.transaction(async (tx) => {
    if (!(await work(tx))) return null;
    const seq = await appendEvents(tx, accountId, stream, [appended]);
    await after?.(tx, seq);
    return seq;
  });
  if (seq === null) return null;
  stopTimer();
  services.events.announceAppended(accountId, stream, [
    { seq, data: appended.json, createdAt: Date.now() },
  ]);
  scheduleSearchIndexing(services.db);
  await services.bus.publish({ accountId, stream, seq }).catch((error: Error) =>
    log.error("announcing {stream} event {seq} failed: {error}", {
      stream,
      seq,
      error: error.message,
    }),
  );
  const cap = services.config.streamCap;
  if (seq % Math.min(cap, PRUNE_EVERY) === 0 && seq > cap) {
    await pruneEvents(services.db, accountId, stream, seq - cap).catch((error: Error) =>
      log.error("pruning {stream} of account {accountId} failed: {error}", {
        stream,
        accountId,
        error: error.message,
      }),
    );
  }
  return seq;
}
