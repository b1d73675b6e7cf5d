// The account API, cattle_grid-compatible, mounted at /fe. One file per resource.

import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { SignInThrottle } from "../accounts/index.ts";
import type { Services } from "../services.ts";
import { createAccountRoutes } from "./account.ts";
import { createCattleDriveRoutes } from "./cattle-drive.ts";
import { createActivityRoutes } from "./activity.ts";
import { createActorRoutes } from "./actor.ts";
import { requireAccount, type FeEnv } from "./auth.ts";
import { sendDetail } from "./errors.ts";
import { createStreamRoutes } from "./streams.ts";
import { createSignInRoutes, createSignOutRoutes } from "./signin.ts";
import { createTriggerRoutes } from "./triggers.ts";
import { createHostRoutes } from "./hosts.ts";
import { createHistoryRoutes } from "./history.ts";
import { createRefusalRoutes } from "./refusals.ts";

export function createFeApp(services: Services, options: { throttle?: SignInThrottle } = {}) {
  const fe = new Hono<FeEnv>();
  // Generous for any activity, small enough that nobody can make the server buffer gigabytes.
  fe.use(
    bodyLimit({
      maxSize: 5 * 1024 * 1024,
      onError: (c) => sendDetail(c, 413, "Request body larger than 5 MiB"),
    }),
  );
  fe.route("/", createSignInRoutes(services, options.throttle));
  fe.use("*", requireAccount(services));
  fe.route("/", createSignOutRoutes(services));
  fe.route("/", createAccountRoutes(services));
  fe.route("/", createActorRoutes(services));
  fe.route("/", createStreamRoutes(services));
  fe.route("/", createActivityRoutes(services));
  fe.route("/", createTriggerRoutes(services));
  fe.route("/", createHostRoutes(services));
  fe.route("/", createHistoryRoutes(services));
  fe.route("/", createRefusalRoutes(services));
  fe.route("/", createCattleDriveRoutes(services));
  return fe;
}
