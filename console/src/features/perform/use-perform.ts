import { useCallback, useState } from "react";
import { callFe, type FeResponse } from "../../lib/fe-client.ts";
import type { TriggerRequest } from "../../lib/wire-types.ts";

export type PerformState = {
  /** The answer to the last Perform, for a one-line status. */
  last: { method: string; result: FeResponse<unknown> } | null;
  perform: (method: string, payload: TriggerRequest) => Promise<void>;
};

/** Posts the payload to /actor/trigger/{method}; the answer is logged (its shape is not shown). */
export function usePerform(): PerformState {
  const [last, setLast] = useState<PerformState["last"]>(null);
  const perform = useCallback(async (method: string, payload: TriggerRequest) => {
    let result: FeResponse<unknown>;
    try {
      result = await callFe(`/actor/trigger/${encodeURIComponent(method)}`, { body: payload });
    } catch (failure) {
      result = { ok: false, status: 0, data: { detail: String(failure) } };
    }
    console.log(`perform ${method}`, result.status, result.data);
    setLast({ method, result });
  }, []);
  return { last, perform };
}
