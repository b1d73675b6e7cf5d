import type { ActorRow } from "../actors/index.ts";
import type { TriggerRun } from "./trigger-run.ts";

/** A method's run: its body checked against its schema, its actor one of the account's. */
export interface MethodCall<Params> {
  accountId: number;
  method: string;
  /** The body as received, quoted in error events. */
  body: Record<string, unknown>;
  /** The body as its schema read it. */
  params: Params;
  actor: ActorRow;
  /** The trigger running this call, when one does. */
  trigger?: TriggerRun;
}
