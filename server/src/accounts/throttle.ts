import type { Db } from "../db/db.ts";
import {
  forgetSignInFailures,
  nthRecentFailure,
  recordSignInFailure,
} from "./signin-failures.store.ts";

// Failed sign-ins are counted per account name and per client address over a sliding window;
// past the limit further attempts are refused (429) without checking the password, so guessing
// costs time. The counts live in the database: a restart does not forgive, and every process
// sharing one PostgreSQL counts together.

export interface ThrottleOptions {
  windowMs: number;
  maxPerName: number;
  maxPerAddress: number;
  /** The clock, for tests. */
  now?: () => number;
}

export interface SignInThrottle {
  /** Seconds to wait when `name` or `address` is locked out, else 0. */
  retryAfter(name: string, address: string): Promise<number>;
  recordFailure(name: string, address: string): Promise<void>;
  recordSuccess(name: string): Promise<void>;
}

export const defaultThrottle: ThrottleOptions = {
  windowMs: 15 * 60_000,
  maxPerName: 5,
  maxPerAddress: 20,
};

export function createSignInThrottle(
  db: Db,
  options: ThrottleOptions = defaultThrottle,
): SignInThrottle {
  const now = options.now ?? Date.now;
  const wait = async (key: string, max: number) => {
    const t = now();
    const nth = await nthRecentFailure(db, key, t - options.windowMs, max);
    return nth === undefined ? 0 : Math.max(1, Math.ceil((nth + options.windowMs - t) / 1000));
  };
  return {
    retryAfter: async (name, address) =>
      Math.max(
        await wait(`name:${name}`, options.maxPerName),
        await wait(`addr:${address}`, options.maxPerAddress),
      ),
    recordFailure: (name, address) => {
      const t = now();
      return recordSignInFailure(db, [`name:${name}`, `addr:${address}`], t, t - options.windowMs);
    },
    recordSuccess: (name) => forgetSignInFailures(db, `name:${name}`),
  };
}
