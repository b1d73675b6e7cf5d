import { useCallback, useSyncExternalStore } from "react";
import { fetchTriggerRecord } from "../../lib/trigger-client.ts";
import { createTriggerDeliveryCache } from "./trigger-delivery-cache.ts";

// One cache for every stream page: a card scrolled away and back, or seen on "All" and on
// "Outgoing", costs no second request once its call has settled.
const cache = createTriggerDeliveryCache(
  async (id) => {
    const answer = await fetchTriggerRecord(id);
    if (answer.ok) return answer.record;
    if (answer.retry) throw new Error(answer.reason);
    return null;
  },
  { gatherMs: 100, concurrency: 4, refreshMs: 2000, staleMs: 30_000 },
);

/** The delivery state of the call that caused a message, or null while the server has not said. */
export function useTriggerDelivery(triggerId: string | null): string | null {
  const subscribe = useCallback(
    (listener: () => void) => (triggerId ? cache.subscribe(triggerId, listener) : () => {}),
    [triggerId],
  );
  return useSyncExternalStore(subscribe, () => (triggerId ? cache.read(triggerId) : null));
}
