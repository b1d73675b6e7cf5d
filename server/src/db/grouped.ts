// Calls made in one turn of the event loop, or while a group is being written, wait and go
// together as the next group: one statement and one commit for many writes (the inbox's claims
// and stored-marks, the delivery queue's outcomes), as the event log groups its appends
// (docs/adr/0008). On PostgreSQL each commit waits for a WAL flush: the
// inbox's claims alone made 2.4 more commits per activity (bench/scale.bench.ts ×1 went 1,624 ->
// 1,811 inbox/s grouped). SQLite answers at once, so there only the turn groups anything: the
// requests read from the sockets in one turn are one group, not one commit each.

interface Pending<T, R> {
  item: T;
  resolve(result: R): void;
  reject(error: unknown): void;
}

/** `run` gets each group (at most `max` items) and answers one result per item, in order. */
export function grouped<T, R>(
  run: (items: T[]) => Promise<R[]>,
  max = 1000,
): (item: T) => Promise<R> {
  let queue: Pending<T, R>[] | undefined;
  const drain = async (waiting: Pending<T, R>[]) => {
    while (waiting.length > 0) {
      const group = waiting.splice(0, max);
      try {
        const results = await run(group.map((p) => p.item));
        group.forEach((pending, i) => pending.resolve(results[i]!));
      } catch (error) {
        for (const pending of group) pending.reject(error);
      }
    }
    queue = undefined;
  };
  return (item) =>
    new Promise<R>((resolve, reject) => {
      if (queue) return void queue.push({ item, resolve, reject });
      const fresh: Pending<T, R>[] = [{ item, resolve, reject }];
      queue = fresh;
      setImmediate(() => void drain(fresh));
    });
}
