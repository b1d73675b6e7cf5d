import type { Services } from "../services.ts";

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
): Promise<void> {
  const event: ErrorEvent = {
    message: lines,
    routing_key: routingKey,
    original_message_body: typeof original === "string" ? original : JSON.stringify(original),
    ...extra,
  };
  try {
    await services.events.append(accountId, "error", event);
  } catch (error) {
    console.error(
      `could not record an error event for account ${accountId}: ${(error as Error).message}`,
    );
  }
}
