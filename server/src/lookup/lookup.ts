import { findActorIdByIdentifier } from "../actors/index.ts";
import type { Services } from "../services.ts";
import { parseHandle, resolveHandle } from "../activitypub/handles.ts";
import { loadSigner } from "../activitypub/local-keys.ts";
import { outgoingOf } from "../activitypub/outgoing.ts";
import { isOurHost, isOurs } from "../activitypub/origins.ts";
import { loadLocalDocument } from "./local-documents.ts";
import { normalizeData } from "../activitypub/muck-out.ts";
import { signedGet } from "../activitypub/signing.ts";

export type LookupResult = { raw: unknown; parsed?: unknown } | { raw: null; error: string };

const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * POST /fe/actor/lookup: a handle resolves through WebFinger first; documents on our own origins
 * are answered locally; anything else is a GET signed as `actorId` (authorized fetch). A failure
 * is a value carrying the reason, never an exception.
 */
export async function lookupUri(
  services: Services,
  input: { actorId: string; uri: string; timeoutMs?: number },
): Promise<LookupResult> {
  try {
    return await lookup(services, input);
  } catch (error) {
    return { raw: null, error: `lookup of ${input.uri} failed: ${(error as Error).message}` };
  }
}

async function lookup(
  services: Services,
  input: { actorId: string; uri: string; timeoutMs?: number },
): Promise<LookupResult> {
  // One deadline for the whole lookup: WebFinger and the fetch share it.
  const deadline = Date.now() + (input.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const remaining = () => Math.max(1, deadline - Date.now());
  const outgoing = outgoingOf(services);
  let uri = input.uri.trim();
  const handle = parseHandle(uri);
  if (handle) {
    const acct = `acct:${handle.user}@${handle.host}`;
    const local = await findActorIdByIdentifier(services.db, acct);
    if (local) uri = local;
    // Our own host: the database is the whole truth, and WebFinger advice would mislead.
    else if (isOurHost(services, handle.host))
      return { raw: null, error: `no actor ${acct} on this server` };
    else {
      const resolved = await resolveHandle(handle, { outgoing, timeoutMs: remaining() });
      if (!resolved.ok) return { raw: null, error: resolved.reason };
      uri = resolved.id;
    }
  }
  if (!/^https?:\/\//i.test(uri))
    return { raw: null, error: `"${input.uri}" is neither an http(s) URI nor acct:user@host` };
  if (isOurs(services, uri)) {
    const local = await loadLocalDocument(services, uri, input.actorId);
    if (!local.found) return { raw: null, error: local.reason };
    return { raw: local.document, parsed: normalizeData(local.document, input.actorId) };
  }
  const signer = await loadSigner(services.db, input.actorId);
  if (!signer) return { raw: null, error: `actor ${input.actorId} has no signing key here` };
  const result = await signedGet(uri, signer, { outgoing, timeoutMs: remaining() });
  if (!result.ok) return { raw: null, error: result.reason };
  return { raw: result.document, parsed: normalizeData(result.document, input.actorId) };
}
