// A Cattle Drive login (MQTT CONNECT, or RabbitMQ asking /rabbitmq/user): an account's name and
// password, throttled as sign-ins are (accounts/throttle.ts: the same counts, so guessing over
// one door does not reset the other).

import {
  decoyHash,
  findAccountById,
  findPasswordHash,
  verifyPassword,
  type Account,
  type SignInThrottle,
} from "../accounts/index.ts";
import type { Services } from "../services.ts";

export type LoginResult =
  { ok: true; account: Account } | { ok: false; reason: string; retryAfterS?: number };

export async function checkLogin(
  services: Services,
  throttle: SignInThrottle,
  login: { name: string; password: string; address: string },
): Promise<LoginResult> {
  const { name, password, address } = login;
  const wait = await throttle.retryAfter(name, address);
  if (wait > 0)
    return {
      ok: false,
      reason: `too many failed logins; try again in ${wait} s`,
      retryAfterS: wait,
    };
  const stored = await findPasswordHash(services.db, name);
  // Unknown names cost a hash check too, so timing does not tell which names exist.
  const valid = await verifyPassword(password, stored?.hash ?? (await decoyHash()));
  const account = stored && valid ? await findAccountById(services.db, stored.id) : undefined;
  if (!account) {
    await throttle.recordFailure(name, address);
    return { ok: false, reason: "wrong name or password" };
  }
  await throttle.recordSuccess(name);
  return { ok: true, account };
}

/**
 * Why a login made with `hash` no longer holds (the account was deleted or its password
 * changed), or null while it does: a connection lives longer than the check at its start.
 */
export async function loginEnded(
  services: Services,
  login: { name: string; hash: string },
): Promise<string | null> {
  const stored = await findPasswordHash(services.db, login.name);
  if (!stored) return `the account ${login.name} was deleted`;
  if (stored.hash !== login.hash) return `the password of ${login.name} changed`;
  return null;
}

/** The stored password hash, to compare with later (loginEnded). */
export async function loginHash(services: Services, name: string): Promise<string | null> {
  return (await findPasswordHash(services.db, name))?.hash ?? null;
}
