import { getLogger } from "@logtape/logtape";
import type { Services } from "../services.ts";
import { linkEvent } from "../db/triggers.store.ts";

const log = getLogger(["corral", "events"]);

// The error stream's writer: every part that fails on behalf of an account reports here.

// cattle_grid's ErrorMessage, plus our own fields where they help (inbox, status, attempt, …).
export interface ErrorEvent {
  message: string[];
  routing_key: string;
  original_message_body: string;
  [extra: string]: unknown;
}

/** Puts an error on the account's error stream; never throws (a lost error is logged instead). */
export async function reportError(
  services: Services,
  accountId: number,
  routingKey: string,
  original: unknown,
  lines: string[],
  extra: Record<string, unknown> = {},
  triggerId: string | null = null,
): Promise<void> {
  const event: Partial<ErrorEvent> = {
    message: lines,
    routing_key: routingKey,
    original_message_body: typeof original === "string" ? original : JSON.stringify(original),
    ...extra,
    trigger_id: triggerId,
  };
  // A trigger's body is stored once, with the trigger: its error events (one per recipient and
  // attempt) leave it out, and reading fills it back in (trigger-bodies.ts).
  if (triggerId !== null) delete event.original_message_body;
  try {
    const seq = await services.events.append(accountId, "error", event);
    if (triggerId !== null) await linkEvent(services.db, triggerId, "error", seq);
  } catch (error) {
    log.error("could not record an error event for account {accountId}: {error}", {
      accountId,
      error: (error as Error).message,
    });
  }
}
