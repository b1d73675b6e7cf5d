// Concurrent calls for one key share one run: the first starts it, the others wait for its
// result, and the key is free again once it settles. Ten sends to the same 500 new actors then
// fetch each actor's document once, not ten times (issue 25: 4,881 GETs for 500 actors).

export function singleFlight<K, V>(): (key: K, run: () => Promise<V>) => Promise<V> {
  const running = new Map<K, Promise<V>>();
  return (key, run) => {
    const current = running.get(key);
    if (current) return current;
    const started = run().finally(() => running.delete(key));
    running.set(key, started);
    return started;
  };
}
