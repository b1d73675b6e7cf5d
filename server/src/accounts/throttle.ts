// Failed sign-ins are counted per account name and per client address over a sliding window;
// past the limit further attempts are refused (429) without checking the password, so guessing
// costs time. In memory: a restart forgives, which is acceptable for a throttle.

export interface ThrottleOptions {
  windowMs: number;
  maxPerName: number;
  maxPerAddress: number;
}

export interface SignInThrottle {
  /** Seconds to wait when `name` or `address` is locked out, else 0. */
  retryAfter(name: string, address: string): number;
  recordFailure(name: string, address: string): void;
  recordSuccess(name: string): void;
}

export function createSignInThrottle(
  options: ThrottleOptions = { windowMs: 15 * 60_000, maxPerName: 5, maxPerAddress: 20 },
  now: () => number = Date.now,
): SignInThrottle {
  const failures = new Map<string, number[]>();
  const recent = (key: string) => {
    const cutoff = now() - options.windowMs;
    const times = (failures.get(key) ?? []).filter((t) => t > cutoff);
    if (times.length) failures.set(key, times);
    else failures.delete(key);
    return times;
  };
  const wait = (key: string, max: number) => {
    const times = recent(key);
    if (times.length < max) return 0;
    return Math.ceil((times[times.length - max]! + options.windowMs - now()) / 1000);
  };
  return {
    retryAfter: (name, address) =>
      Math.max(
        wait(`name:${name}`, options.maxPerName),
        wait(`addr:${address}`, options.maxPerAddress),
      ),
    recordFailure(name, address) {
      for (const key of [`name:${name}`, `addr:${address}`])
        failures.set(key, [...recent(key), now()]);
    },
    recordSuccess(name) {
      failures.delete(`name:${name}`);
    },
  };
}
