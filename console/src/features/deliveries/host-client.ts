import { callFe } from "../../lib/fe-client.ts";
import { describeFeError } from "../../lib/fe-error-detail.ts";
import { readHostList, type HostAction, type HostHealth } from "../../lib/host-health.ts";
import { rememberAbsent, routeOffered } from "../../lib/server-capabilities.ts";
import type { Backlog, HostCheck, HostCheckLine, HostDetail } from "../../lib/wire-types.ts";

// Corral's delivery-health routes (docs/api.md#delivery-health) through the one fetch wrapper.
// Failures are values; a network failure too, in words.

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

export type HostDetailAnswer =
  { ok: true; detail: HostDetail } | { ok: false; unsupported: boolean; reason: string };

/**
 * `GET /fe/account/hosts/{host}` (docs/api.md#get-feaccounthostshost): both directions, hold,
 * newest attempts.
 */
export async function fetchHostDetail(
  host: string,
  signal?: AbortSignal,
): Promise<HostDetailAnswer> {
  try {
    if ((await routeOffered("/account/hosts")) === "no") {
      return { ok: false, unsupported: true, reason: "the server reports no hosts" };
    }
    const result = await callFe<HostDetail>(`/account/hosts/${encodeURIComponent(host)}`, {
      signal,
    });
    if (!result.ok) return { ok: false, unsupported: false, reason: describeFeError(result) };
    const detail = result.data;
    if (!detail || detail.host !== host || !Array.isArray(detail.attempts) || !detail.inbound) {
      return { ok: false, unsupported: false, reason: "the answer is not a host's detail" };
    }
    return { ok: true, detail };
  } catch (failure) {
    if (signal?.aborted) throw failure;
    return { ok: false, unsupported: false, reason: unreachable(failure) };
  }
}

/** `POST /fe/account/hosts/{host}/check`: the staged diagnosis, all steps in one answer. */
/**
 * `POST /fe/account/hosts/{host}/check`, streamed: `onLine` hears each step as it starts
 * (`{running}`) and as it completes; the answer is the whole check, verdict included.
 */
export async function checkHost(
  host: string,
  onLine: (line: HostCheckLine) => void = () => {},
): Promise<{ ok: true; check: HostCheck } | { ok: false; reason: string }> {
  try {
    const path = `/account/hosts/${encodeURIComponent(host)}/check`;
    const result = await callFe<HostCheck>(path, {
      method: "POST",
      onLine: (line) => {
        if (typeof line === "object" && line !== null) onLine(line as HostCheckLine);
      },
    });
    if (!result.ok) return { ok: false, reason: describeFeError(result) };
    const check = result.data;
    if (!check || !Array.isArray(check.steps) || typeof check.verdict !== "string") {
      return { ok: false, reason: "the answer is not a host check" };
    }
    return { ok: true, check };
  } catch (failure) {
    return { ok: false, reason: unreachable(failure) };
  }
}

export type BacklogAnswer =
  | { ok: true; backlog: Backlog }
  | { ok: false; unsupported: true }
  | { ok: false; unsupported: false; reason: string };

/** `GET /fe/account/backlog`: what waits for delivery; absent on a real cattle_grid. */
export async function fetchBacklog(signal?: AbortSignal): Promise<BacklogAnswer> {
  try {
    if ((await routeOffered("/account/backlog")) === "no") return { ok: false, unsupported: true };
    const result = await callFe<Backlog>("/account/backlog", { signal });
    if (result.status === 404) {
      rememberAbsent("/account/backlog");
      return { ok: false, unsupported: true };
    }
    if (!result.ok) return { ok: false, unsupported: false, reason: describeFeError(result) };
    const backlog = result.data;
    if (!backlog || typeof backlog.waiting !== "number" || !Array.isArray(backlog.worstHosts)) {
      return { ok: false, unsupported: false, reason: "the answer is not a backlog" };
    }
    return { ok: true, backlog };
  } catch (failure) {
    if (signal?.aborted) throw failure;
    return { ok: false, unsupported: false, reason: unreachable(failure) };
  }
}
