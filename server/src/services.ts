// What every part of the server is handed: one object built at start (main.ts), passed to the
// /fe routes, the Fedify callbacks (as their context data) and the federation helpers.

import type { Federation } from "@fedify/fedify";
import type { Config } from "./config.ts";
import type { Db } from "./db/db.ts";
import type { EventBus } from "./events/bus.ts";
import type { EventLog } from "./events/event-log.ts";

export interface Services {
  config: Config;
  db: Db;
  events: EventLog;
  federation: Federation<Services>;
  bus: EventBus;
}
