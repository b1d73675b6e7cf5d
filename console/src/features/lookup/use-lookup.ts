import { useCallback, useEffect, useRef, useState } from "react";
import { callFe, type FeResponse } from "../../lib/fe-client.ts";
import type { LookupRequest, LookupResult } from "../../lib/wire-types.ts";

export type LookupState = {
  /** The answer to the latest lookup: the result or the error body. */
  result: FeResponse<LookupResult> | null;
  lookup: (uri: string) => Promise<void>;
};

/** Looks a URI up as the given actor; only the latest lookup's answer is kept. */
export function useLookup(actorId: string | null): LookupState {
  const [result, setResult] = useState<FeResponse<LookupResult> | null>(null);
  const latest = useRef<AbortController | null>(null);

  useEffect(() => () => latest.current?.abort(), []);

  const lookup = useCallback(
    async (uri: string) => {
      if (actorId === null) return;
      latest.current?.abort();
      const controller = new AbortController();
      latest.current = controller;
      const body: LookupRequest = { uri, actorId };
      try {
        setResult(await callFe<LookupResult>("/actor/lookup", { body, signal: controller.signal }));
      } catch (failure) {
        if (controller.signal.aborted) return;
        setResult({ ok: false, status: 0, data: { detail: String(failure) } });
      }
    },
    [actorId],
  );

  return { result, lookup };
}
