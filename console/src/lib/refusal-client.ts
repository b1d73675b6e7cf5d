// What the inbox refused (docs/api.md#what-the-inbox-refused, `GET /fe/account/refusals`): Corral's
// addition to cattle_grid's API; a real cattle_grid has no such route. Failures are values, in
// words.
import { callFe } from "./fe-client.ts";
import { describeFeError } from "./fe-error-detail.ts";
import { rememberAbsent, routeOffered } from "./server-capabilities.ts";
import type { RefusalEntry, RefusalPage, RefusalReason } from "./wire-types.ts";

export type { RefusalEntry, RefusalReason };

/** The reasons the server names, with the words the "Reason" filter shows for each. */
export const REFUSAL_REASONS: ReadonlyArray<{ code: RefusalReason; label: string }> = [
  { code: "unsigned", label: "Not signed" },
  { code: "bad_signature", label: "Bad signature" },
  { code: "digest_mismatch", label: "Digest does not match the body" },
  { code: "key_fetch_failed", label: "Key could not be fetched" },
  { code: "actor_mismatch", label: "Actor is not the key's owner" },
  { code: "date_skew", label: "Date too far off" },
  { code: "unknown_actor", label: "No such actor here" },
  { code: "gone", label: "Actor gone" },
  { code: "too_large", label: "Body too large" },
  { code: "too_deep", label: "Body nested too deep" },
  { code: "malformed", label: "Not a readable activity" },
  { code: "throttled", label: "Too many requests" },
];

export function reasonLabel(code: string): string {
  return REFUSAL_REASONS.find((reason) => reason.code === code)?.label ?? code;
}

/** The refused activity as a table shows it, "Create https://…/1"; null when nothing was read. */
export function refusalActivity(entry: RefusalEntry): string | null {
  return entry.activityType === null && entry.activityId === null
    ? null
    : `${entry.activityType ?? ""} ${entry.activityId ?? ""}`;
}

/** The host a refusal came from: the key's, else the actor's, else the client's address. */
export function refusalHost(entry: RefusalEntry): string {
  return entry.keyHost ?? entry.actorHost ?? entry.client;
}

export type RefusalQuery = { host?: string; reason?: string; before?: number; limit?: number };

export type RefusalAnswer =
  | { ok: true; refusals: RefusalEntry[]; more: boolean }
  /** A real cattle_grid (proxy mode) has no such route. */
  | { ok: false; unsupported: true }
  | { ok: false; unsupported: false; reason: string };

export async function fetchRefusals(
  query: RefusalQuery,
  signal?: AbortSignal,
): Promise<RefusalAnswer> {
  try {
    if ((await routeOffered("/account/refusals")) === "no") {
      return { ok: false, unsupported: true };
    }
    const params = new URLSearchParams();
    if (query.host) params.set("host", query.host);
    if (query.reason) params.set("reason", query.reason);
    if (query.before !== undefined) params.set("before", String(query.before));
    if (query.limit !== undefined) params.set("limit", String(query.limit));
    const search = params.size > 0 ? `?${params.toString()}` : "";
    const result = await callFe<RefusalPage>(`/account/refusals${search}`, { signal });
    if (result.status === 404) {
      rememberAbsent("/account/refusals");
      return { ok: false, unsupported: true };
    }
    if (!result.ok) return { ok: false, unsupported: false, reason: describeFeError(result) };
    const page = result.data;
    if (!page || !Array.isArray(page.refusals)) {
      return { ok: false, unsupported: false, reason: "the answer is not a list of refusals" };
    }
    return { ok: true, refusals: page.refusals, more: page.more === true };
  } catch (failure) {
    if (signal?.aborted) throw failure;
    return {
      ok: false,
      unsupported: false,
      reason: `the server could not be reached (${String(failure)})`,
    };
  }
}
