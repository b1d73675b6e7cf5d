import { findActorIdByIdentifier } from "../actors/index.ts";
import type { Services } from "../services.ts";
import { parseHandle, resolveHandle } from "../activitypub/handles.ts";
import { loadSigner } from "../activitypub/local-keys.ts";
import { outgoingOf } from "../activitypub/outgoing.ts";
import { isOurHost, isOurs } from "../activitypub/origins.ts";
import { loadLocalDocument } from "./local-documents.ts";
import { normalizeData } from "../activitypub/muck-out.ts";
import { signedGet } from "../activitypub/signing.ts";
import type { Exchange } from "../activitypub/exchange.ts";
import { isPrivateHost } from "../activitypub/addresses.ts";
import { kindOfFetchFailure, type LookupFailure, type LookupFailureKind } from "./failure-kind.ts";

export type { LookupFailure, LookupFailureKind };
export type LookupResult = { raw: unknown; parsed?: unknown } | LookupFailure;

const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * POST /fe/actor/lookup: a handle resolves through WebFinger first; documents on our own origins
 * are answered locally; anything else is a GET signed as `actorId` (authorized fetch). A failure
 * is a value carrying the reason, never an exception.
 */
export async function lookupUri(
  services: Services,
  input: { actorId: string; uri: string; timeoutMs?: number },
  /** Filled with every request sent, hop by hop, and its answer (the console's "Show exchange"). */
  exchange: Exchange = { requests: [] },
): Promise<LookupResult> {
  try {
    return await lookup(services, input, exchange);
  } catch (error) {
    const reason = `lookup of ${input.uri} failed: ${(error as Error).message}`;
    return { raw: null, error: reason, kind: "unreachable" };
  }
}

async function lookup(
  services: Services,
  input: { actorId: string; uri: string; timeoutMs?: number },
  exchange: Exchange,
): Promise<LookupResult> {
  const trace = exchange.requests;
  // One deadline for the whole lookup: WebFinger and the fetch share it.
  const deadline = Date.now() + (input.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const remaining = () => Math.max(1, deadline - Date.now());
  const seconds = Math.round((input.timeoutMs ?? DEFAULT_TIMEOUT_MS) / 100) / 10;
  /** A failed request to `url`, its kind read from the fetch's reason and status. */
  const fetchFailure = (url: string, failure: { reason: string; status?: number }) => {
    const { kind, status } = kindOfFetchFailure(failure);
    const answer: LookupFailure = { raw: null, error: failure.reason, kind, url };
    if (status !== undefined) answer.status = status;
    if (kind === "timeout") answer.seconds = seconds;
    return answer;
  };
  const outgoing = outgoingOf(services);
  let uri = input.uri.trim();
  const handle = parseHandle(uri);
  if (handle) {
    const acct = `acct:${handle.user}@${handle.host}`;
    const local = await findActorIdByIdentifier(services.db, acct);
    if (local) uri = local;
    // Our own host: the database is the whole truth, and WebFinger advice would mislead.
    else if (isOurHost(services, handle.host)) {
      exchange.note = `${acct} is on this server: answered from its database, no request sent`;
      return { raw: null, error: `no actor ${acct} on this server`, kind: "not-found" };
    } else {
      const resolved = await resolveHandle(handle, { outgoing, timeoutMs: remaining(), trace });
      if (!resolved.ok) return fetchFailure(webFingerUrl(handle, outgoing.allowPrivate), resolved);
      uri = resolved.id;
    }
  }
  if (!/^https?:\/\//i.test(uri)) {
    const error = `"${input.uri}" is neither an http(s) URI nor acct:user@host`;
    exchange.note = "no request sent: the URI is neither http(s) nor acct:";
    return { raw: null, error, kind: "invalid" };
  }
  if (isOurs(services, uri)) {
    exchange.note = `${uri} is on this server: answered from its database, no request sent`;
    const local = await loadLocalDocument(services, uri, input.actorId);
    if (!local.found) return { ...fetchFailure(uri, localFailure(local.reason)), url: uri };
    return { raw: local.document, parsed: normalizeData(local.document, input.actorId) };
  }
  const signer = await loadSigner(services.db, input.actorId);
  if (!signer) {
    const error = `actor ${input.actorId} has no signing key here`;
    exchange.note = `no request sent: ${error}`;
    return { raw: null, error, kind: "no-key" };
  }
  const result = await signedGet(uri, signer, {
    outgoing,
    timeoutMs: remaining(),
    trace,
    signedAs: input.actorId,
  });
  if (!result.ok) return fetchFailure(uri, result);
  return { raw: result.document, parsed: normalizeData(result.document, input.actorId) };
}

/**
 * The WebFinger URL a handle's lookup asked first: http for a loopback or private host when
 * private addresses are allowed (handles.ts tries http there first), else https.
 */
function webFingerUrl(handle: { user: string; host: string }, allowPrivate: boolean): string {
  const hostname = new URL(`http://${handle.host}`).hostname;
  const scheme = allowPrivate && isPrivateHost(hostname) ? "http" : "https";
  const resource = encodeURIComponent(`acct:${handle.user}@${handle.host}`);
  return `${scheme}://${handle.host}/.well-known/webfinger?resource=${resource}`;
}

/** A local document's refusal ("… answered 403 here", "not an ActivityPub document") as a fetch's. */
function localFailure(reason: string): { reason: string; status?: number } {
  const status = /answered (\d{3}) here/.exec(reason)?.[1];
  return status ? { reason, status: Number(status) } : { reason, status: 200 };
}
