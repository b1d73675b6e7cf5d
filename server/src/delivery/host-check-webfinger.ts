import { selfLink } from "../activitypub/handles.ts";
import type { Outgoing } from "../activitypub/outgoing-types.ts";
import { signedGet } from "../activitypub/signing.ts";

// The WebFinger step of a host check (docs/host-check.md): most of the fediverse answers only
// `acct:` resources, so the check asks `acct:preferredUsername@host` of the actor it fetched, and
// passes when the answer's self link is that actor. A host whose actors give no name, or whose
// accts name another host (cattle_grid drops the port), is told so in words.

export type StepOutcome = { ok: boolean; detail: string };

export async function checkWebFinger(
  outgoing: Outgoing,
  origin: string,
  actorId: string,
  document: Record<string, unknown>,
  timeoutMs: number,
): Promise<StepOutcome> {
  const actorUrl = new URL(actorId);
  const name =
    typeof document.preferredUsername === "string" && document.preferredUsername.trim() !== ""
      ? document.preferredUsername.trim()
      : undefined;
  if (name === undefined) return { ok: false, detail: namelessDetail(actorId, actorUrl, document) };
  const resource = `acct:${name}@${actorUrl.host}`;
  const answer = await signedGet(
    `${origin}/.well-known/webfinger?resource=${encodeURIComponent(resource)}`,
    null,
    { outgoing, timeoutMs, accept: "application/jrd+json, application/json" },
  );
  if (!answer.ok) return { ok: false, detail: `${resource} is not found: ${answer.reason}` };
  const self = selfLink(answer.document);
  if (!self) return { ok: false, detail: `${resource} has no ActivityPub self link` };
  if (self !== actorId)
    return { ok: false, detail: `${resource} links to ${self}, not to the actor ${actorId}` };
  return { ok: true, detail: `${resource}: self ${self}` };
}

/** Why no acct: can be asked for an actor without preferredUsername, and what it says instead. */
function namelessDetail(actorId: string, actorUrl: URL, document: Record<string, unknown>) {
  const lacking = `${actorId} names no preferredUsername, so there is no acct:NAME@${actorUrl.host} to ask WebFinger for (servers find an actor by that name)`;
  const accts = acctsOf(document);
  if (accts.length === 0) return `${lacking}.`;
  const dropped = accts.filter((acct) => {
    const host = acct.slice(acct.lastIndexOf("@") + 1).toLowerCase();
    return actorUrl.port !== "" && host === actorUrl.hostname.toLowerCase();
  });
  const said = `; it lists ${accts.join(", ")}`;
  if (dropped.length > 0)
    return `${lacking}${said}, which ${dropped.length === 1 ? "drops" : "drop"} the port of ${actorUrl.host}: those name another host.`;
  return `${lacking}${said}.`;
}

/** The `acct:` URIs an actor document lists (cattle_grid's `identifiers`, `alsoKnownAs`). */
function acctsOf(document: Record<string, unknown>): string[] {
  const values = [document.identifiers, document.alsoKnownAs].flatMap((v) =>
    Array.isArray(v) ? v : [v],
  );
  return values.filter((v): v is string => typeof v === "string" && v.startsWith("acct:"));
}
