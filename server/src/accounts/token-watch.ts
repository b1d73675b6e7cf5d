// Open event streams end with their token (docs/api.md#post-fesignout): sign-out, `account
// revoke-tokens`, `account password`, expiry, a deleted account, in whichever process it happens.
// A token's end is in the database; each process checks the tokens its streams hold in one
// query, at once when a token end is announced on the bus (as events are: in-process on SQLite,
// NOTIFY on PostgreSQL) and once a second for what no announcement reaches (expiry, a command
// run on a SQLite file by another process). Streams need not ask at each keep-alive (15 s).

import { getLogger } from "@logtape/logtape";
import type { EventBus } from "../db/bus.ts";
import type { Db } from "../db/db.ts";
import { hashToken, liveTokenHashes } from "./tokens.store.ts";

export const TOKENS_BUS_NAME = "tokens";
const CHECK_EVERY_MS = 1000;

const log = getLogger(["corral", "session"]);

export interface TokenWatch {
  /** Calls `onEnd` once, when the token has ended; returns the function that stops watching. */
  watch(token: string, onEnd: () => void): () => void;
}

type Owner = { db: Db; bus: EventBus };
const watches = new WeakMap<Owner, TokenWatch>();

/** The process's watch over the tokens of its open streams (one per Services). */
export function tokenWatchOf(services: Owner): TokenWatch {
  let watch = watches.get(services);
  if (!watch) {
    watch = createTokenWatch(services.db, services.bus);
    watches.set(services, watch);
  }
  return watch;
}

/** Says on the bus that tokens of the account ended: every process checks its streams' now. */
export async function announceTokensEnded(bus: EventBus, accountId: number): Promise<void> {
  await bus.publish({ accountId, stream: TOKENS_BUS_NAME, seq: 0 }).catch((error: Error) =>
    log.warn("announcing the end of tokens of account {accountId} failed: {error}", {
      accountId,
      error: error.message,
    }),
  );
}

function createTokenWatch(db: Db, bus: EventBus): TokenWatch {
  const held = new Map<string, Set<() => void>>();
  let timer: ReturnType<typeof setInterval> | undefined;
  let checking: Promise<void> | undefined;
  let again = false;

  const checkOnce = async () => {
    const hashes = [...held.keys()];
    if (hashes.length === 0) return;
    const live = await liveTokenHashes(db, hashes, Date.now());
    for (const hash of hashes) {
      if (live.has(hash)) continue;
      const ends = held.get(hash);
      held.delete(hash);
      for (const end of ends ?? []) end();
    }
    if (held.size === 0) stopTimer();
  };
  // One check at a time; a request made during one runs once it is done.
  const check = () => {
    if (checking) {
      again = true;
      return;
    }
    checking = checkOnce()
      .catch((error: Error) =>
        // A database hiccup is not a sign-out: the next check asks again.
        log.warn("checking the tokens of open streams failed: {error}", {
          error: error.message,
        }),
      )
      .finally(() => {
        checking = undefined;
        if (again) {
          again = false;
          check();
        }
      });
  };
  const stopTimer = () => {
    clearInterval(timer);
    timer = undefined;
  };

  bus.subscribe((message) => {
    if (message.stream === TOKENS_BUS_NAME && held.size > 0) check();
  });

  return {
    watch(token, onEnd) {
      const hash = hashToken(token);
      let ends = held.get(hash);
      if (!ends) held.set(hash, (ends = new Set()));
      let ended = false;
      const end = () => {
        if (ended) return;
        ended = true;
        onEnd();
      };
      ends.add(end);
      if (!timer) {
        timer = setInterval(check, CHECK_EVERY_MS);
        timer.unref();
      }
      return () => {
        ended = true;
        const set = held.get(hash);
        set?.delete(end);
        if (set?.size === 0) held.delete(hash);
        if (held.size === 0) stopTimer();
      };
    },
  };
}
