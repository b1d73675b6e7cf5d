import { verifySigner } from "../activitypub/verify.ts";
import { hideBlindCopies, isPublic, loadStoredObject, mayRead } from "../objects/objects.ts";
import type { Services } from "../services.ts";

// GET /objects/{uuid}: public objects for anyone; the rest only to a signed request (authorized
// fetch) from the author, an addressee, or a follower when the author's followers are addressed.

const CONTENT_TYPE = "application/activity+json; charset=utf-8";

/** GET of a stored object id. */
export async function handleObjectRequest(services: Services, request: Request): Promise<Response> {
  const url = new URL(request.url);
  const id = `${url.origin}${url.pathname}`;
  const stored = await loadStoredObject(services, id);
  if (!stored) return problem(404, `no object ${id} here`);
  if (stored.deleted) {
    return json(410, {
      "@context": "https://www.w3.org/ns/activitystreams",
      id,
      type: "Tombstone",
    });
  }
  const data = stored.data as Record<string, unknown>;
  if (!isPublic(data)) {
    const signed = await verifySigner(services, request, null);
    if (!signed.ok) return problem(401, `${id} is not public: ${signed.reason}`);
    if (!(await mayRead(services, data, stored.actorId, signed.owner))) {
      return problem(403, `${signed.owner} is not among the audience of ${id}`);
    }
  }
  return json(200, hideBlindCopies(data));
}

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": CONTENT_TYPE, Vary: "Accept, Signature" },
  });
}

function problem(status: number, detail: string): Response {
  return Response.json({ detail }, { status });
}
