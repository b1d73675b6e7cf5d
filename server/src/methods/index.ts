import { findActor, type ActorRow } from "../actors/index.ts";
import { reportError } from "../events/report-error.ts";
import type { Services } from "../services.ts";
import { findMethod, methods } from "./catalog.ts";
import { MethodError } from "./method-error.ts";
import type { TriggerRun } from "../triggers/trigger-run.ts";

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

/** Runs a method; resolves once it is done, with what went wrong (null: nothing). Never throws. */
export async function execute(services: Services, input: MethodInput): Promise<string | null> {
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
    return null;
  } catch (error) {
    const lines =
      error instanceof MethodError
        ? error.lines
        : [`${input.method} failed: ${(error as Error).message}`];
    if (!(error instanceof MethodError))
      console.error(`${input.method} failed for account ${input.accountId}:`, error);
    await reportError(
      services,
      input.accountId,
      input.method,
      input.body,
      lines,
      {},
      input.trigger?.id ?? null,
    );
    return lines.join(" ");
  }
}
