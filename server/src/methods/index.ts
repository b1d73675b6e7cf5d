import type { Services } from "../services.ts";
import { reportError } from "../events/report-error.ts";
import { MethodError } from "./method-error.ts";

// POST /fe/actor/trigger/{method} lands here after the route answered 202. Every method runs
// off the request path and reports what it could not do on the account's error stream.

export interface MethodInput {
  accountId: number;
  method: string;
  body: Record<string, unknown>;
}

type Method = (services: Services, input: MethodInput) => Promise<void>;

// Loaded on first use, so that importing the runner stays cheap for the routes.
const methods = new Map<string, () => Promise<Method>>([
  ["send_message", async () => (await import("./send-message.ts")).sendMessage],
  ["update_actor", async () => (await import("./update-actor.ts")).updateActor],
  ["delete_actor", async () => (await import("./delete-actor.ts")).deleteActor],
  ["publish_activity", async () => (await import("./publish.ts")).publishActivity],
  ["publish_object", async () => (await import("./publish.ts")).publishObject],
]);

/** Runs a method in the background; never throws. Tracked, so closing the server waits for it. */
export function runMethod(services: Services, input: MethodInput): void {
  const running = execute(services, input);
  void (services.tasks ? services.tasks.track(running) : running);
}

/** Runs a method and resolves once it is done (tests and the demo await this). */
export async function execute(services: Services, input: MethodInput): Promise<void> {
  try {
    const load = methods.get(input.method);
    if (!load)
      throw new MethodError(
        `unknown method "${input.method}"`,
        `known methods: ${[...methods.keys()].join(", ")}`,
      );
    const method = await load();
    await method(services, input);
  } catch (error) {
    const lines =
      error instanceof MethodError
        ? error.lines
        : [`${input.method} failed: ${(error as Error).message}`];
    if (!(error instanceof MethodError))
      console.error(`${input.method} failed for account ${input.accountId}:`, error);
    await reportError(services, input.accountId, input.method, input.body, lines);
  }
}
