import { useCallback, useEffect, useRef, useState } from "react";
import { learnFromDocument } from "../../lib/actor-handles.ts";
import { callFe, type FeResponse } from "../../lib/fe-client.ts";
import type { LookupRequest, LookupResult } from "../../lib/wire-types.ts";
import { useLookupHistory } from "./lookup-history.ts";

export type LookupState = {
  /** The URI of the latest lookup, answered or still running. */
  uri: string | null;
  /** The answer to the latest lookup (the result or the error body); null while it runs. */
  result: FeResponse<LookupResult> | null;
  pending: boolean;
  lookup: (uri: string) => Promise<void>;
};

type Current = Pick<LookupState, "uri" | "result" | "pending">;

/**
 * Looks a URI up as the given actor. Only the latest lookup counts: starting one drops the
 * previous answer at once (no stale result under a new URI) and aborts a lookup still running.
 * Every answered lookup goes into the recent lookups, with its document when it found one.
 */
export function useLookup(actorId: string | null): LookupState {
  const [current, setCurrent] = useState<Current>({ uri: null, result: null, pending: false });
  const latest = useRef<AbortController | null>(null);

  useEffect(() => () => latest.current?.abort(), []);

  const lookup = useCallback(
    async (uri: string) => {
      if (actorId === null) return;
      latest.current?.abort();
      const controller = new AbortController();
      latest.current = controller;
      setCurrent({ uri, result: null, pending: true });
      const body: LookupRequest = { uri, actorId };
      let result: FeResponse<LookupResult>;
      try {
        result = await callFe<LookupResult>("/actor/lookup", { body, signal: controller.signal });
      } catch (failure) {
        if (controller.signal.aborted) return;
        result = { ok: false, status: 0, data: { detail: `no answer: ${String(failure)}` } };
      }
      if (controller.signal.aborted) return;
      setCurrent({ uri, result, pending: false });
      const raw = result.ok ? result.data.raw : null;
      learnFromDocument(raw);
      useLookupHistory.getState().record({ uri, at: Date.now(), document: raw ?? undefined });
    },
    [actorId],
  );

  return { ...current, lookup };
}
