import { useCallback, useEffect, useRef, useState } from "react";
import { callFe } from "../../lib/fe-client.ts";
import { describeFeError } from "../../lib/fe-error-detail.ts";
import { rememberAbsent, routeOffered } from "../../lib/server-capabilities.ts";
import { getStreamStore, STREAM_TYPES } from "../../lib/streams/stream-store.ts";
import type { ActivityMinute, ActivityResponse } from "../../lib/wire-types.ts";

export type AccountActivity =
  | { state: "loading" }
  | { state: "ready"; minutes: ActivityMinute[] }
  /** The server has no such route: a cattle_grid behind proxy mode. */
  | { state: "unsupported" }
  | { state: "failed"; reason: string };

const REFRESH_MS = 15_000;
const ACTIVITY = "/account/activity";
/** A burst of stream messages refreshes the chart once, this long after it starts. */
const SETTLE_MS = 2_000;

/**
 * GET /account/activity?minutes=60, refreshed every 15 s and soon after a stream badge changes.
 * A failed refresh keeps the last counts on screen and says why beside them.
 */
export function useAccountActivity(): { activity: AccountActivity; stale: string | null } {
  const [activity, setActivity] = useState<AccountActivity>({ state: "loading" });
  const [stale, setStale] = useState<string | null>(null);
  const shown = useRef(false);

  const load = useCallback(async (signal: AbortSignal) => {
    let next: AccountActivity;
    try {
      // Never asked of a server known to lack it, and asked of an unknown one once per sign-in.
      if ((await routeOffered(ACTIVITY)) === "no") {
        if (!signal.aborted) setActivity({ state: "unsupported" });
        return;
      }
      const result = await callFe<ActivityResponse>(`${ACTIVITY}?minutes=60`, { signal });
      if (result.ok) next = { state: "ready", minutes: result.data.minutes };
      else if (result.status === 404) {
        rememberAbsent(ACTIVITY);
        next = { state: "unsupported" };
      } else next = { state: "failed", reason: describeFeError(result) };
    } catch (failure) {
      if (signal.aborted) return;
      next = { state: "failed", reason: `no answer (${String(failure)})` };
    }
    if (next.state === "failed" && shown.current) return setStale(next.reason);
    shown.current = next.state === "ready";
    setStale(null);
    setActivity(next);
  }, []);

  useEffect(() => {
    const controller = new AbortController();
    let settle: ReturnType<typeof setTimeout> | undefined;
    const refresh = () => void load(controller.signal);
    const soon = () => (settle ??= setTimeout(() => ((settle = undefined), refresh()), SETTLE_MS));
    refresh();
    const timer = setInterval(refresh, REFRESH_MS);
    const unsubscribe = STREAM_TYPES.map((type) =>
      getStreamStore(type).subscribe((state, previous) => {
        if (state.messages.length !== previous.messages.length) soon();
      }),
    );
    return () => {
      controller.abort();
      clearInterval(timer);
      clearTimeout(settle);
      unsubscribe.forEach((stop) => stop());
    };
  }, [load]);

  return { activity, stale };
}
