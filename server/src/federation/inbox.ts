import type { Services } from "../services.ts";
import { receiveActivity } from "./index.ts";
import { findLocalActor } from "../activitypub/local-keys.ts";
import { parseJsonText, tooDeepReason } from "../activitypub/json-depth.ts";
import { idOf, isObject } from "../activitypub/parse.ts";
import { verifySigner } from "../activitypub/verify.ts";
import type { SignedRequest } from "../activitypub/verify-draft.ts";

// POST {actorId}/inbox and POST /inbox. The body is read once; the signature (draft-cavage or
// RFC 9421, told apart by Fedify from the headers) must cover the body's digest and be made with
// a key its `actor` owns. Only then does anything reach a stream. The request arrives as Node's
// own (inbox-listener.ts, the usual way) or through Hono (app.ts, for unusual paths).

export const MAX_INBOX_BODY_BYTES = 1024 * 1024;
const utf8 = new TextDecoder();

export interface InboxRequest extends SignedRequest {
  /** The body, read once; null when it is larger than MAX_INBOX_BODY_BYTES. */
  body(): Promise<Uint8Array | null>;
}

/** The answer: a status, and for a refusal the reason (sent as `{"detail": …}`). */
export interface InboxAnswer {
  status: number;
  detail?: string;
}

export async function handleInbox(
  services: Services,
  request: InboxRequest,
  actorId: string | null,
): Promise<InboxAnswer> {
  if (actorId !== null) {
    const actor = await findLocalActor(services.db, actorId);
    if (!actor) return problem(404, `no actor ${actorId} here`);
    if (actor.deleted) return problem(410, `actor ${actorId} is gone`);
  }
  if (Number(request.headers.get("Content-Length") ?? 0) > MAX_INBOX_BODY_BYTES) {
    return problem(413, "activity larger than 1 MiB");
  }
  const bytes = await request.body();
  if (bytes === null) return problem(413, "activity larger than 1 MiB");
  const parsed = parseJsonText(utf8.decode(bytes));
  if (!parsed.ok)
    return problem(400, parsed.reason === tooDeepReason ? parsed.reason : "the body is not JSON");
  const activity = parsed.value;
  const sender = isObject(activity) ? idOf(activity.actor) : undefined;
  if (!sender) return problem(400, "the activity has no actor");

  const signed = await verifySigner(services, request, bytes);
  if (!signed.ok) return problem(401, signed.reason);
  if (signed.owner !== sender)
    return problem(401, `signed by ${signed.owner}, not by the activity's actor ${sender}`);

  const received = await receiveActivity(
    services,
    activity as Record<string, unknown>,
    sender,
    actorId,
  );
  if (!received.ok) return problem(401, received.reason);
  // A replay is answered like the first delivery: the sender need not know we had it.
  return { status: 202 };
}

/** A fetch Request (through Hono) as the inbox reads it. */
export function inboxRequestOf(request: Request): InboxRequest {
  return {
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

function problem(status: number, detail: string): InboxAnswer {
  return { status, detail };
}
