import type { Services } from "../services.ts";

// The activity types an inbox reacts to beyond putting them on the incoming stream. The list is
// written once, in federation/index.ts; receiving code only looks a type up here.

type Json = Record<string, unknown>;

export interface Arrival {
  /** The activity as it arrived. */
  raw: Json;
  /** Its actor, whose signature checked out (or one of ours, delivering on this server). */
  sender: string;
  /** Our actors it was for. */
  recipients: string[];
}

export type InboxHandler = (services: Services, arrival: Arrival) => Promise<void>;

export class InboxHandlers {
  readonly #handlers = new Map<string, InboxHandler>();

  /** Registers the handler of one activity type (one per type: a second would be a mistake). */
  on(type: string, handler: InboxHandler): this {
    if (this.#handlers.has(type)) throw new Error(`two inbox handlers for ${type}`);
    this.#handlers.set(type, handler);
    return this;
  }

  /** The handler of the activity's (first) type, if any. */
  for(raw: Json): InboxHandler | undefined {
    const type = Array.isArray(raw.type) ? raw.type[0] : raw.type;
    return typeof type === "string" ? this.#handlers.get(type) : undefined;
  }
}
