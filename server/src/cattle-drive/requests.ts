// A message a client sent on `send.{account}.…`, answered as cattle_grid 0.5.22 answers it:
// request.info, request.create_actor and request.fetch on `receive.{account}.response.{method}`,
// trigger.{method} through the same path as POST /fe/actor/trigger/{method} (its events follow on
// the streams). Every failure is an `error.{account}` message with the request's correlation id
// and words saying why; cattle_grid drops an unknown method silently, Corral says so.

import { randomUUID } from "node:crypto";
import { getLogger } from "@logtape/logtape";
import { z } from "zod";
import { describeAccount } from "../accounts/account-info.ts";
import type { Account } from "../accounts/index.ts";
import { actorNameRule, createActorForAccount, handleRule } from "../accounts/create-actor.ts";
import { nestsDeeperThan, tooDeepReason } from "../activitypub/json-depth.ts";
import { lookupUri } from "../lookup/lookup.ts";
import { findMethod, findOwnActor } from "../methods/index.ts";
import { methodInformationFor } from "../methods/catalog.ts";
import type { Services } from "../services.ts";
import { acceptTrigger } from "../triggers/index.ts";
import type { Correlations } from "./correlations.ts";
import { errorKey, parseSendKey, responseKey, type DriveMessage } from "./protocol.ts";

const log = getLogger(["corral", "cattle-drive"]);

/** How long a fetch may take: almabtrieb gives up after 1 s unless told otherwise. */
export const FETCH_TIMEOUT_MS = 900;

const requests = ["info", "create_actor", "fetch"];

const createActorBody = z
  .looseObject({
    base_url: z.string().optional(),
    baseUrl: z.string().optional(),
    preferred_username: handleRule.nullish(),
    preferredUsername: handleRule.nullish(),
    profile: z.record(z.string(), z.unknown()).nullish(),
    automatically_accept_followers: z.boolean().nullish(),
    automaticallyAcceptFollowers: z.boolean().nullish(),
    name: actorNameRule.nullish(),
  })
  .refine((body) => body.base_url ?? body.baseUrl, {
    message: "base_url is required",
    path: ["base_url"],
  });

const fetchBody = z.object({ actor: z.string(), uri: z.string() });

class Refusal extends Error {}

/** Answers one message of `account`; what to send back (nothing for an accepted trigger). */
export async function handleDriveMessage(
  services: Services,
  correlations: Correlations,
  account: Account,
  message: { key: string; payload: string; correlationId: string | null },
): Promise<DriveMessage[]> {
  const correlationId = message.correlationId || randomUUID();
  const reply = (method: string, body: unknown): DriveMessage[] => [
    { key: responseKey(account.name, method), payload: JSON.stringify(body), correlationId },
  ];
  try {
    const sent = parseSendKey(account.name, message.key);
    if (!sent) throw new Refusal(`${message.key} is not a key of account ${account.name}`);
    if (sent.kind === "unknown")
      throw new Refusal(
        `unknown routing key ${message.key}: Cattle Drive takes send.${account.name}.request.{${requests.join(",")}} and send.${account.name}.trigger.METHOD`,
      );
    const body = parseJson(message.payload);
    if (sent.kind === "request") {
      if (sent.method === "info") return reply("info", await describeAccount(services, account));
      if (sent.method === "create_actor") {
        const input = check(createActorBody, body);
        const created = await createActorForAccount(services, account, {
          baseUrl: (input.base_url ?? input.baseUrl)!,
          handle: input.preferred_username ?? input.preferredUsername,
          name: input.name,
          profile: input.profile ?? undefined,
          autoFollow: input.automatically_accept_followers ?? input.automaticallyAcceptFollowers,
        });
        if (!created.ok) throw new Refusal(created.reason);
        return reply("create_actor", created.document);
      }
      if (sent.method === "fetch") {
        const input = check(fetchBody, body);
        const own = await findOwnActor(services, account.id, input.actor);
        if (!own.ok) throw new Refusal(own.reason);
        const result = await lookupUri(services, {
          actorId: own.actor.id,
          uri: input.uri,
          timeoutMs: FETCH_TIMEOUT_MS,
        });
        if ("error" in result) throw new Refusal(result.error);
        return reply("fetch", { actor: own.actor.id, uri: input.uri, data: result.raw });
      }
      throw new Refusal(
        `unknown request ${sent.method}: Cattle Drive's requests are ${requests.join(", ")}`,
      );
    }
    const method = findMethod(sent.method);
    if (!method) {
      const known = methodInformationFor([]).map((m) => m.routing_key);
      throw new Refusal(`unknown method ${sent.method}: this server's are ${known.join(", ")}`);
    }
    const input = check(method.body, body) as Record<string, unknown>;
    const own = await findOwnActor(services, account.id, String(input.actor));
    if (!own.ok) throw new Refusal(own.reason);
    const id = randomUUID();
    correlations.remember(id, correlationId);
    await acceptTrigger(services, {
      id,
      accountId: account.id,
      actorId: own.actor.id,
      method: sent.method,
      body: input,
      correlationId,
    });
    return [];
  } catch (thrown) {
    let error = thrown;
    if (!(error instanceof Refusal)) {
      log.error("Cattle Drive {key} of {account} failed: {error}", {
        key: message.key,
        account: account.name,
        error: (error as Error)?.message ?? String(error),
      });
      error = new Refusal(`the server failed to handle ${message.key}; its log says why`);
    }
    return [
      {
        key: errorKey(account.name),
        payload: JSON.stringify({
          message: (error as Refusal).message.split("\n"),
          routing_key: message.key,
          original_message_body: message.payload,
        }),
        correlationId,
      },
    ];
  }
}

function parseJson(text: string): unknown {
  if (nestsDeeperThan(text)) throw new Refusal(tooDeepReason);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Refusal(`the body is not JSON: ${(error as Error).message}`);
  }
}

function check<T>(schema: z.ZodType<T>, input: unknown): T {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw new Refusal(
    result.error.issues
      .map((issue) => `${issue.path.length ? `${issue.path.join(".")}: ` : ""}${issue.message}`)
      .join("\n"),
  );
}
