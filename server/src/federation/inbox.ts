import { isIP } from "node:net";
import type { Services } from "../services.ts";
import { receiveActivity } from "./index.ts";
import { findLocalActor } from "../activitypub/local-keys.ts";
import { parseJsonText, tooDeepReason } from "../activitypub/json-depth.ts";
import { idOf, isObject } from "../activitypub/parse.ts";
import { verifySigner } from "../activitypub/verify.ts";
import type { SignedRequest } from "../activitypub/verify-draft.ts";
import {
  addressedIn,
  KEPT_BODY_BYTES,
  recordAccepted,
  recordRefusal,
  type RefusalReason,
} from "../receive/refusals.ts";

// POST {actorId}/inbox and POST /inbox. The body is read once; the signature (draft-cavage or
// RFC 9421, told apart by Fedify from the headers) must cover the body's digest and be made with
// a key its `actor` owns. Only then does anything reach a stream. The request arrives read off
// the connection (inbox-connection.ts, the usual way), as Node's own (inbox-listener.ts, a request
// spelt unusually) or through Hono (app.ts, for unusual paths). Every 4xx
// is recorded with its reason after it is answered (receive/refusals.ts,
// docs/server-guide.md#what-the-inbox-refused).

export const MAX_INBOX_BODY_BYTES = 1024 * 1024;
const utf8 = new TextDecoder();

export interface InboxRequest extends SignedRequest {
  /** The body, read once; null when it is larger than MAX_INBOX_BODY_BYTES. */
  body(): Promise<Uint8Array | null>;
  /** The client's address (read only for a refusal's record). */
  client?(): string;
}

/** The answer: a status, and for a refusal the reason (sent as `{"detail": …}`) and its code. */
export interface InboxAnswer {
  status: number;
  detail?: string;
  reason?: RefusalReason;
}

export async function handleInbox(
  services: Services,
  request: InboxRequest,
  actorId: string | null,
): Promise<InboxAnswer> {
  const seen: Seen = { bytes: null, activity: undefined, keyId: null };
  const answer = await decide(services, request, actorId, seen);
  if (answer.reason !== undefined) noteRefusal(services, request, actorId, seen, answer);
  return answer;
}

/** What the inbox read of a request before answering it, for the refusal record. */
interface Seen {
  bytes: Uint8Array | null;
  activity: unknown;
  keyId: string | null;
}

async function decide(
  services: Services,
  request: InboxRequest,
  actorId: string | null,
  seen: Seen,
): Promise<InboxAnswer> {
  if (actorId !== null) {
    const actor = await findLocalActor(services.db, actorId);
    if (!actor || actor.deleted) {
      // Read for the record only: what was sent, by whom.
      await readForRecord(request, seen);
      return actor
        ? problem(410, "gone", `actor ${actorId} is gone`)
        : problem(404, "unknown_actor", `no actor ${actorId} here`);
    }
  }
  if (Number(request.headers.get("Content-Length") ?? 0) > MAX_INBOX_BODY_BYTES) {
    return problem(413, "too_large", "activity larger than 1 MiB");
  }
  const bytes = await request.body();
  if (bytes === null) return problem(413, "too_large", "activity larger than 1 MiB");
  seen.bytes = bytes;
  const parsed = parseJsonText(utf8.decode(bytes));
  if (!parsed.ok)
    return parsed.reason === tooDeepReason
      ? problem(400, "too_deep", parsed.reason)
      : problem(400, "malformed", "the body is not JSON");
  const activity = parsed.value;
  seen.activity = activity;
  const sender = isObject(activity) ? idOf(activity.actor) : undefined;
  if (!sender) return problem(400, "malformed", "the activity has no actor");

  const signed = await verifySigner(services, request, bytes);
  if (!signed.ok) return problem(401, signed.code, signed.reason);
  seen.keyId = signed.keyId;
  if (signed.owner !== sender)
    return problem(
      401,
      "actor_mismatch",
      `signed by ${signed.owner}, not by the activity's actor ${sender}`,
    );

  const received = await receiveActivity(
    services,
    activity as Record<string, unknown>,
    sender,
    actorId,
  );
  if (!received.ok) return problem(401, "actor_mismatch", received.reason);
  if (received.accounts) recordAccepted(services, hostOf(sender) ?? "?", received.accounts);
  // A replay is answered like the first delivery: the sender need not know we had it.
  return { status: 202 };
}

async function readForRecord(request: InboxRequest, seen: Seen) {
  if (Number(request.headers.get("Content-Length") ?? 0) > MAX_INBOX_BODY_BYTES) return;
  seen.bytes = await request.body().catch(() => null);
  const parsed = seen.bytes === null ? undefined : parseJsonText(utf8.decode(seen.bytes));
  if (parsed?.ok) seen.activity = parsed.value;
}

/** The refusal record's entry for a refused request (written after the answer, grouped). */
function noteRefusal(
  services: Services,
  request: InboxRequest,
  actorId: string | null,
  seen: Seen,
  answer: InboxAnswer,
) {
  const activity = isObject(seen.activity) ? seen.activity : undefined;
  const keyId = seen.keyId ?? keyIdOf(request);
  const type = activity?.type;
  recordRefusal(services, {
    receivedAt: Date.now(),
    client: request.client?.() ?? "unknown",
    inbox: request.url,
    keyId,
    keyHost: keyId === null ? null : (hostOf(keyId) ?? null),
    actorHost: activity ? (hostOf(idOf(activity.actor)) ?? null) : null,
    activityId: typeof activity?.id === "string" ? activity.id : null,
    activityType:
      typeof type === "string"
        ? type
        : Array.isArray(type) && typeof type[0] === "string"
          ? type[0]
          : null,
    status: answer.status,
    reason: answer.reason!,
    detail: answer.detail ?? "",
    body: seen.bytes === null ? null : utf8.decode(seen.bytes.subarray(0, KEPT_BODY_BYTES)),
    addressedTo: actorId !== null ? [actorId] : activity ? addressedIn(activity) : [],
  });
}

/** The keyId a request's signature names (draft-cavage or RFC 9421), or null. */
function keyIdOf(request: InboxRequest): string | null {
  const header = request.headers.get("Signature-Input") ?? request.headers.get("Signature") ?? "";
  return /keyid="([^"]+)"/i.exec(header)?.[1] ?? null;
}

// Senders come again and again: each actor id's host is worked out once.
const hosts = new Map<string, string | undefined>();

function hostOf(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  let host = hosts.get(url);
  if (host === undefined && !hosts.has(url)) {
    host = URL.canParse(url) ? new URL(url).host || undefined : undefined;
    if (hosts.size >= 10_000) hosts.delete(hosts.keys().next().value!);
    hosts.set(url, host);
  }
  return host;
}

/** The client's address: the peer, or behind --trust-proxy the last X-Forwarded-For address. */
export function inboxClient(
  peer: string | undefined,
  forwardedFor: string | null | undefined,
  trustProxy: boolean,
): string {
  if (!trustProxy || !forwardedFor) return peer ?? "unknown";
  const last = forwardedFor.split(",").at(-1)?.trim() ?? "";
  return isIP(last) !== 0 ? last : (peer ?? "unknown");
}

/** A fetch Request (through Hono) as the inbox reads it. */
export function inboxRequestOf(request: Request, client?: () => string): InboxRequest {
  return {
    client,
    method: request.method,
    url: request.url,
    headers: request.headers,
    async body() {
      if (Number(request.headers.get("Content-Length") ?? 0) > MAX_INBOX_BODY_BYTES) return null;
      const bytes = new Uint8Array(await request.arrayBuffer());
      return bytes.byteLength > MAX_INBOX_BODY_BYTES ? null : bytes;
    },
  };
}

/** The answer as a fetch Response. */
export function inboxResponse(answer: InboxAnswer): Response {
  return answer.detail === undefined
    ? new Response(null, { status: answer.status })
    : Response.json({ detail: answer.detail }, { status: answer.status });
}

function problem(status: number, reason: RefusalReason, detail: string): InboxAnswer {
  return { status, detail, reason };
}
