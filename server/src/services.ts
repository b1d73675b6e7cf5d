// What every part of the server is handed: one object built at start (main.ts), passed to the
// /fe routes, the Fedify callbacks (as their context data) and the federation helpers.

import type { Federation } from "@fedify/fedify";
import type { Outgoing } from "./activitypub/outgoing-types.ts";
import type { CattleDrive } from "./cattle-drive/runtime.ts";
import type { Config } from "./config.ts";
import type { Db } from "./db/db.ts";
import type { EventBus } from "./db/bus.ts";
import type { EventLog } from "./events/event-log.ts";

export interface Services {
  config: Config;
  db: Db;
  events: EventLog;
  federation: Federation<Services>;
  bus: EventBus;
  /**
   * The way out for every outgoing request (connections pinned to checked addresses). Optional
   * so that hand-built Services in tests stay valid: outgoingOf() makes one from the config.
   */
  outgoing?: Outgoing;
  /**
   * Work running after its request was answered (methods): track it here and close() waits for
   * it before closing the database. Optional so that hand-built Services in tests stay valid.
   */
  tasks?: BackgroundTasks;
  /**
   * Cattle Drive's transports in this process (cattle-drive/runtime.ts). Optional so that
   * hand-built Services in tests stay valid: absent means none is served.
   */
  cattleDrive?: CattleDrive;
}

export interface BackgroundTasks {
  /** Keeps `promise` in view until it settles; returns it. */
  track<T>(promise: Promise<T>): Promise<T>;
  /** Resolves once everything tracked so far has settled. */
  drain(): Promise<void>;
}
