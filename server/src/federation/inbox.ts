import type { Services } from "../services.ts";
import { receiveActivity } from "./index.ts";
import { findLocalActor } from "../activitypub/local-keys.ts";
import { parseJsonText, tooDeepReason } from "../activitypub/json-depth.ts";
import { idOf, isObject } from "../activitypub/parse.ts";
import { verifySigner } from "../activitypub/verify.ts";

// POST {actorId}/inbox and POST /inbox. The body is read once; the signature (draft-cavage or
// RFC 9421, told apart by Fedify from the headers) must cover the body's digest and be made with
// a key its `actor` owns. Only then does anything reach a stream.

const MAX_BODY_BYTES = 1024 * 1024;

export async function handleInbox(
  services: Services,
  request: Request,
  actorId: string | null,
): Promise<Response> {
  if (actorId !== null) {
    const actor = await findLocalActor(services.db, actorId);
    if (!actor) return problem(404, `no actor ${actorId} here`);
    if (actor.deleted) return problem(410, `actor ${actorId} is gone`);
  }
  if (Number(request.headers.get("Content-Length") ?? 0) > MAX_BODY_BYTES) {
    return problem(413, "activity larger than 1 MiB");
  }
  const bytes = new Uint8Array(await request.arrayBuffer());
  if (bytes.byteLength > MAX_BODY_BYTES) return problem(413, "activity larger than 1 MiB");
  const parsed = parseJsonText(new TextDecoder().decode(bytes));
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
  return new Response(null, { status: 202 });
}

function problem(status: number, detail: string): Response {
  return Response.json({ detail }, { status });
}
