import { callFe } from "./fe-client.ts";
import { describeFeError } from "./fe-error-detail.ts";
import { readTriggerRecord, type RedeliverRequest, type TriggerRecord } from "./trigger-record.ts";

// Corral's trigger routes (docs/api.md#actor) through the one fetch wrapper. Failures are values;
// a network failure too, in words.

export type TriggerAnswer =
  | { ok: true; record: TriggerRecord }
  /** `retry`: the failure may pass (no answer, a 5xx); a 404 or a refusal will not. */
  | { ok: false; reason: string; retry: boolean };

export async function fetchTriggerRecord(id: string, signal?: AbortSignal): Promise<TriggerAnswer> {
  try {
    const result = await callFe(`/actor/triggers/${encodeURIComponent(id)}`, { signal });
    if (!result.ok) {
      const reason = describeFeError(result);
      return { ok: false, reason, retry: result.status >= 500 || result.unreachable === true };
    }
    const record = readTriggerRecord(result.data);
    if (record === null) {
      return { ok: false, reason: "the answer is not a trigger record", retry: false };
    }
    return { ok: true, record };
  } catch (failure) {
    if (signal?.aborted) throw failure;
    return {
      ok: false,
      reason: `the server could not be reached (${String(failure)})`,
      retry: true,
    };
  }
}

/** Puts the failed deliveries of a trigger (or the one to `inbox`) back in the queue. */
export async function redeliverTrigger(
  id: string,
  inbox?: string,
): Promise<{ ok: true } | { ok: false; reason: string }> {
  const body: RedeliverRequest = inbox === undefined ? {} : { inbox };
  try {
    const result = await callFe(`/actor/triggers/${encodeURIComponent(id)}/redeliver`, { body });
    if (result.ok) return { ok: true };
    return { ok: false, reason: describeFeError(result) };
  } catch (failure) {
    return { ok: false, reason: `the server could not be reached (${String(failure)})` };
  }
}
