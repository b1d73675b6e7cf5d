import { Hono } from "hono";
import { activityPerMinute } from "../events/activity.ts";
import type { Services } from "../services.ts";
import type { FeEnv } from "./auth.ts";
import { sendValidationErrors } from "./errors.ts";
import type { ActivityResponse } from "./wire.ts";

// GET /account/activity?minutes=N (1 to 1440, default 60): per-minute event counts of the
// caller's streams. A Corral addition; cattle_grid has no such route (the console says so).

export function createActivityRoutes(services: Services) {
  return new Hono<FeEnv>().get("/account/activity", async (c) => {
    const raw = c.req.query("minutes") ?? "60";
    const minutes = /^\d+$/.test(raw) ? Number(raw) : NaN;
    if (!(minutes >= 1 && minutes <= 1440)) {
      return sendValidationErrors(c, [
        {
          loc: ["query", "minutes"],
          msg: "Input should be a whole number of minutes from 1 to 1440",
          type: "int_parsing",
        },
      ]);
    }
    const answer: ActivityResponse = {
      minutes: await activityPerMinute(services.db, c.get("account").id, minutes),
    };
    return c.json(answer);
  });
}
