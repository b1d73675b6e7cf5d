import { useCallback, useEffect, useRef, useState } from "react";
import { callFe, type FeError } from "../../lib/fe-client.ts";
import { onServerBack } from "../../lib/server-reachability.ts";
import { useUserStore } from "../../lib/user-store.ts";
import type { AccountInfo } from "../../lib/wire-types.ts";

export type AccountInfoState = {
  info: AccountInfo | null;
  /** A non-OK answer other than 401, kept to show why the info is missing. */
  error: FeError | null;
  loading: boolean;
  refresh: () => Promise<void>;
};

/**
 * Loads GET /account/info while a token is set. The answer replaces the actors and methods held
 * in the user store; a 401 means the token is dead, so it is cleared (signing the user out).
 */
export function useAccountInfo(): AccountInfoState {
  const token = useUserStore((state) => state.token);
  const [info, setInfo] = useState<AccountInfo | null>(null);
  const [error, setError] = useState<FeError | null>(null);
  const latest = useRef<AbortController | null>(null);

  const refresh = useCallback(async () => {
    latest.current?.abort();
    const controller = new AbortController();
    latest.current = controller;
    const { applyAccountInfo, setToken } = useUserStore.getState();
    try {
      const result = await callFe<AccountInfo>("/account/info", { signal: controller.signal });
      if (result.ok) {
        applyAccountInfo(result.data.actors, result.data.methodInformation ?? []);
        setInfo(result.data);
        setError(null);
      } else if (result.status === 401) {
        console.log("unauthorized");
        setToken(null);
      } else {
        setError(result);
      }
    } catch (failure) {
      if (controller.signal.aborted) return;
      throw failure;
    }
  }, []);

  useEffect(() => {
    setInfo(null);
    setError(null);
    if (token) void refresh();
    return () => latest.current?.abort();
  }, [token, refresh]);

  // A server that was away (a restart behind a proxy) is asked again the moment it answers.
  const failed = error?.unreachable === true;
  useEffect(() => (failed ? onServerBack(() => void refresh()) : undefined), [failed, refresh]);

  return { info, error, loading: token !== null && info === null && error === null, refresh };
}
