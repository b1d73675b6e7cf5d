import { callFe } from "./fe-client.ts";
import { describeFeError } from "./fe-error-detail.ts";
import { readHostList, type HostAction, type HostHealth } from "./host-health.ts";
import { rememberAbsent, routeOffered } from "./server-capabilities.ts";

// Corral's delivery-health routes (server.md §8) through the one fetch wrapper. Failures are
// values; a network failure too, in words.

export type HostListAnswer =
  | { ok: true; hosts: HostHealth[] }
  /** A real cattle_grid (proxy mode) has no such route: nothing to ask again. */
  | { ok: false; unsupported: true }
  /** `signedOut`: the token was refused (401); asking again will not help until sign-in. */
  | { ok: false; unsupported: false; reason: string; signedOut?: boolean };

export async function fetchHosts(signal?: AbortSignal): Promise<HostListAnswer> {
  try {
    // Never asked of a server known to lack it, and asked of an unknown one once per sign-in.
    if ((await routeOffered("/account/hosts")) === "no") return { ok: false, unsupported: true };
    const result = await callFe("/account/hosts", { signal });
    if (result.status === 404) {
      rememberAbsent("/account/hosts");
      return { ok: false, unsupported: true };
    }
    if (!result.ok) {
      const reason = describeFeError(result);
      return { ok: false, unsupported: false, reason, signedOut: result.status === 401 };
    }
    const hosts = readHostList(result.data);
    if (hosts === null) {
      return { ok: false, unsupported: false, reason: "the answer is not a list of hosts" };
    }
    return { ok: true, hosts };
  } catch (failure) {
    if (signal?.aborted) throw failure;
    return { ok: false, unsupported: false, reason: unreachable(failure) };
  }
}

/** `POST /fe/account/hosts/{host}/stop|resume|retry`. */
export async function actOnHost(
  host: string,
  action: HostAction,
): Promise<{ ok: true } | { ok: false; reason: string }> {
  try {
    const path = `/account/hosts/${encodeURIComponent(host)}/${action}`;
    const result = await callFe(path, { method: "POST" });
    if (result.ok) return { ok: true };
    return { ok: false, reason: describeFeError(result) };
  } catch (failure) {
    return { ok: false, reason: unreachable(failure) };
  }
}

function unreachable(failure: unknown): string {
  return `the server could not be reached (${String(failure)})`;
}
