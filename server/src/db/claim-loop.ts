// The loop both work queues (deliveries, triggers) run: claim as much due work as there is room
// for, run each item off the loop, renew the leases of what is in flight, and sleep until woken
// (a bus message: in-process on SQLite, LISTEN/NOTIFY on PostgreSQL) or until the slow poll that
// catches what no message announced (retries coming due, leases of dead processes running out).

import { getLogger } from "@logtape/logtape";

const log = getLogger(["corral", "queue"]);

export interface ClaimLoopOptions<T extends { id: K }, K> {
  /** Named in log lines. */
  name: string;
  concurrency: number;
  pollMs: number;
  leaseMs: number;
  claim(room: number): Promise<T[]>;
  renew(ids: K[], until: number): Promise<void>;
  /** Runs one claimed item and writes its outcome; a rejection is logged. */
  run(item: T): Promise<void>;
}

export interface ClaimLoop {
  wake(): void;
  /** Stops claiming, lets what is in flight finish. */
  stop(): Promise<void>;
}

export function startClaimLoop<T extends { id: K }, K>(options: ClaimLoopOptions<T, K>): ClaimLoop {
  const inFlight = new Map<K, Promise<void>>();
  let stopped = false;
  let signalled = false;
  let endWait: (() => void) | undefined;

  const wake = () => {
    signalled = true;
    endWait?.();
  };
  const waitForWork = () =>
    new Promise<void>((resolve) => {
      if (signalled || stopped) return resolve();
      const timer = setTimeout(() => endWait?.(), options.pollMs);
      endWait = () => {
        clearTimeout(timer);
        endWait = undefined;
        resolve();
      };
    });

  // Renewed at a third of the lease, so a lease ends only when its process is gone.
  const renewer = setInterval(
    () => {
      const ids = [...inFlight.keys()];
      if (ids.length === 0) return;
      options.renew(ids, Date.now() + options.leaseMs).catch((error) =>
        log.error("{name}: lease renewal failed: {error}", {
          name: options.name,
          error: (error as Error).message,
        }),
      );
    },
    Math.max(10, Math.floor(options.leaseMs / 3)),
  );
  renewer.unref();

  // Claimed in batches: a claim is a statement, so one is made when a quarter of the room is
  // free (or all of it), not each time one item ends.
  const batch = Math.max(1, Math.floor(options.concurrency / 4));
  const start = (item: T) => {
    const running = options
      .run(item)
      .catch((error) =>
        log.error("{name}: {error}", { name: options.name, error: (error as Error).message }),
      )
      .finally(() => {
        inFlight.delete(item.id);
        if (inFlight.size === 0 || options.concurrency - inFlight.size >= batch) wake();
      });
    inFlight.set(item.id, running);
  };

  const loop = (async () => {
    while (!stopped) {
      signalled = false;
      const room = options.concurrency - inFlight.size;
      let claimed: T[] = [];
      if (room > 0) {
        try {
          claimed = await options.claim(room);
        } catch (error) {
          log.error("{name}: claim failed: {error}", {
            name: options.name,
            error: (error as Error).message,
          });
        }
      }
      for (const item of claimed) start(item);
      if (claimed.length > 0 && claimed.length === room) continue;
      await waitForWork();
    }
  })();

  return {
    wake,
    async stop() {
      stopped = true;
      wake();
      await loop;
      while (inFlight.size > 0) await Promise.all([...inFlight.values()]);
      clearInterval(renewer);
    },
  };
}
