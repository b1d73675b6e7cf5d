import { randomUUID } from "node:crypto";
import type { Services } from "../services.ts";
import { idsOf, isObject } from "../activitypub/parse.ts";
import { verifySigner } from "../activitypub/verify.ts";

// Objects and activities our actors published, stored so that their ids dereference.
// Mount: app.get("/objects/:id", (c) => handleObjectRequest(services, c.req.raw)).
// Public ones are served to anyone; the rest only to a signed request (authorized fetch) from
// the author, an addressee, or a follower when the author's followers are addressed.

const PUBLIC = new Set(["https://www.w3.org/ns/activitystreams#Public", "as:Public", "Public"]);
const CONTENT_TYPE = "application/activity+json; charset=utf-8";

/** A fresh id for something `actorId` publishes, on the actor's own origin. */
export function mintObjectId(actorId: string): string {
  return `${new URL(actorId).origin}/objects/${randomUUID()}`;
}

export async function storeObject(
  services: Services,
  actorId: string,
  data: Record<string, unknown>,
): Promise<void> {
  await services.db.run(
    `INSERT INTO objects (id, actor_id, data, created_at) VALUES (?, ?, ?, ?)`,
    [data.id, actorId, JSON.stringify(data), Date.now()],
  );
}

/** A stored object (publish_object / publish_activity) by id. */
export async function loadStoredObject(
  services: Services,
  id: string,
): Promise<{ data: unknown; actorId: string; deleted: boolean } | undefined> {
  const row = await services.db.get<{ data: string; actor_id: string; deleted_at: number | null }>(
    `SELECT data, actor_id, deleted_at FROM objects WHERE id = ?`,
    [id],
  );
  if (!row) return undefined;
  return { data: JSON.parse(row.data), actorId: row.actor_id, deleted: row.deleted_at != null };
}

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

/** What `reader` may see of a stored object: the object without bto/bcc, or why not. */
export async function readStoredObjectAs(
  services: Services,
  stored: { data: unknown; actorId: string },
  reader: string,
): Promise<{ ok: true; data: Record<string, unknown> } | { ok: false; reason: string }> {
  const data = stored.data as Record<string, unknown>;
  if (!isPublic(data) && !(await mayRead(services, data, stored.actorId, reader))) {
    return { ok: false, reason: `${reader} is not among the audience of ${String(data.id)}` };
  }
  return { ok: true, data: hideBlindCopies(data) };
}

/** The object as others may see it: bto and bcc removed, at the top and in an embedded object. */
export function hideBlindCopies(data: Record<string, unknown>): Record<string, unknown> {
  const { bto: _bto, bcc: _bcc, ...visible } = data;
  if (isObject(visible.object)) visible.object = hideBlindCopies(visible.object);
  return visible;
}

function isPublic(data: Record<string, unknown>): boolean {
  const inner = isObject(data.object) ? data.object : {};
  return ["to", "cc", "audience"].some(
    (key) =>
      idsOf(data[key]).some((id) => PUBLIC.has(id)) ||
      idsOf(inner[key]).some((id) => PUBLIC.has(id)),
  );
}

async function mayRead(
  services: Services,
  data: Record<string, unknown>,
  author: string,
  reader: string,
): Promise<boolean> {
  if (reader === author) return true;
  const audience = new Set(
    ["to", "cc", "bto", "bcc", "audience"].flatMap((key) => idsOf(data[key])),
  );
  if (audience.has(reader)) return true;
  if (!audience.has(`${author}/followers`)) return false;
  const row = await services.db.get(
    `SELECT 1 AS yes FROM followers WHERE actor_id = ? AND follower_id = ?`,
    [author, reader],
  );
  return row !== undefined;
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
