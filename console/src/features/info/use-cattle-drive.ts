import { useCallback, useEffect, useRef, useState } from "react";
import { callFe } from "../../lib/fe-client.ts";
import { describeFeError } from "../../lib/fe-error-detail.ts";
import { rememberAbsent, routeOffered } from "../../lib/server-capabilities.ts";
import type { CattleDriveInfo } from "../../lib/wire-types.ts";

export type CattleDriveState =
  | { state: "loading" }
  | { state: "ready"; drive: CattleDriveInfo }
  /** The server has no such route: a cattle_grid behind proxy mode. */
  | { state: "unsupported" }
  | { state: "failed"; reason: string };

const ROUTE = "/account/cattle-drive";
/** Clients come and go: who is connected is asked again this often while Info is open. */
export const CATTLE_DRIVE_REFRESH_MS = 15_000;

/**
 * GET /account/cattle-drive, refreshed every 15 s. A failed refresh keeps the last answer on
 * screen and says why beside it.
 */
export function useCattleDrive(): { drive: CattleDriveState; stale: string | null } {
  const [drive, setDrive] = useState<CattleDriveState>({ state: "loading" });
  const [stale, setStale] = useState<string | null>(null);
  const shown = useRef(false);

  const load = useCallback(async (signal: AbortSignal) => {
    let next: CattleDriveState;
    try {
      // Never asked of a server known to lack it (no failed request in the browser's log), and
      // asked of an unknown one once per sign-in.
      if ((await routeOffered(ROUTE)) === "no") {
        if (!signal.aborted) setDrive({ state: "unsupported" });
        return;
      }
      const result = await callFe<CattleDriveInfo>(ROUTE, { signal });
      if (result.ok) next = { state: "ready", drive: result.data };
      else if (result.status === 404) {
        rememberAbsent(ROUTE);
        next = { state: "unsupported" };
      } else next = { state: "failed", reason: describeFeError(result) };
    } catch (failure) {
      if (signal.aborted) return;
      next = { state: "failed", reason: `no answer (${String(failure)})` };
    }
    if (signal.aborted) return;
    if (next.state === "failed" && shown.current) return setStale(next.reason);
    shown.current = next.state === "ready";
    setStale(null);
    setDrive(next);
  }, []);

  useEffect(() => {
    const controller = new AbortController();
    const refresh = () => void load(controller.signal);
    refresh();
    const timer = setInterval(refresh, CATTLE_DRIVE_REFRESH_MS);
    return () => {
      controller.abort();
      clearInterval(timer);
    };
  }, [load]);

  return { drive, stale };
}
