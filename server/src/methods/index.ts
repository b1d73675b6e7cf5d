import { getLogger } from "@logtape/logtape";
import { findActor, type ActorRow } from "../actors/index.ts";
import { isTransientDbError } from "../db/transient.ts";
import { reportError } from "../events/report-error.ts";
import type { Services } from "../services.ts";
import { findMethod, methods } from "./catalog.ts";
import { MethodError } from "./method-error.ts";
import type { TriggerRun } from "./trigger-run.ts";

// POST /fe/actor/trigger/{method} checks the body against the method's schema (catalog.ts) and
// the actor, records the trigger, answers 202, and the trigger worker (triggers/) runs it here.
// A method reports what it could not do on the account's error stream.

export { anyMethodBody } from "./schemas.ts";
export { findMethod } from "./catalog.ts";

export interface MethodInput {
  accountId: number;
  method: string;
  body: Record<string, unknown>;
  /** The account's actor named by body.actor, when the caller (the /fe edge) checked it already. */
  actor?: ActorRow;
  /** The trigger running this call, when one does (its events carry its id). */
  trigger?: TriggerRun;
}

/** The account's live actor `actorId`, or why it is not one. */
export async function findOwnActor(
  services: Services,
  accountId: number,
  actorId: string,
): Promise<{ ok: true; actor: ActorRow } | { ok: false; reason: string }> {
  const actor = await findActor(services.db, actorId);
  if (!actor || actor.accountId !== accountId)
    return { ok: false, reason: `${actorId} is not one of your actors` };
  if (actor.deleted) return { ok: false, reason: `${actorId} was deleted` };
  return { ok: true, actor };
}

/**
 * What a method's run came to: done; failed for good (the method refused, or a bug: reported on
 * the error stream); or cut short by the database (a lost race, a lost connection, a busy
 * file) when a trigger runs it, so that the trigger can run it again: nothing is reported then.
 */
export type MethodOutcome =
  | { ok: true }
  | { ok: false; final: true; error: string }
  | { ok: false; final: false; error: string };

const log = getLogger(["corral", "method"]);

/** Runs a method; resolves once it is done, with what went wrong (null: nothing). Never throws. */
export async function execute(services: Services, input: MethodInput): Promise<string | null> {
  const outcome = await runMethod(services, input);
  return outcome.ok ? null : outcome.error;
}

/** Runs a method and says how it ended (see MethodOutcome). Never throws. */
export async function runMethod(services: Services, input: MethodInput): Promise<MethodOutcome> {
  try {
    const entry = findMethod(input.method);
    if (!entry)
      throw new MethodError(
        `unknown method "${input.method}"`,
        `known methods: ${methods.map((m) => m.routing_key).join(", ")}`,
      );
    // The edge checked the body already; callers inside the process (demo, tests) did not.
    const parsed = entry.body.safeParse(input.body);
    if (!parsed.success)
      throw new MethodError(...parsed.error.issues.map((i) => `${input.method}: ${i.message}`));
    let actor = input.actor;
    if (!actor) {
      const own = await findOwnActor(services, input.accountId, String(input.body.actor));
      if (!own.ok) throw new MethodError(`${input.method}: ${own.reason}`);
      actor = own.actor;
    }
    const run = await entry.load();
    await run(services, { ...input, params: parsed.data, actor });
    return { ok: true };
  } catch (error) {
    const message = (error as Error)?.message ?? String(error);
    // Only a trigger can run again (its sends are counted, so nothing is sent twice); a caller
    // inside the process gets the failure as before.
    if (input.trigger && !(error instanceof MethodError) && isTransientDbError(error))
      return { ok: false, final: false, error: message };
    const lines =
      error instanceof MethodError ? error.lines : [`${input.method} failed: ${message}`];
    if (!(error instanceof MethodError))
      log.error("{method} failed for account {accountId}: {error}", {
        method: input.method,
        accountId: input.accountId,
        error: message,
      });
    await reportError(
      services,
      input.accountId,
      input.method,
      input.body,
      lines,
      {},
      input.trigger?.id ?? null,
    );
    return { ok: false, final: true, error: lines.join(" ") };
  }
}
