import { useMemo, useState } from "react";
import type { StreamMessage } from "../../lib/stream-store.ts";

export const NO_FILTER = "";

/**
 * The chosen activity type and the messages it lets through. When the chosen type disappears from
 * the messages (a reset, old messages dropped) the filter returns to "Don't filter".
 */
export function useTypeFilter(
  messages: readonly StreamMessage[],
  activityTypes: readonly string[],
) {
  const [chosen, setChosen] = useState(NO_FILTER);
  const stillPresent = chosen === NO_FILTER || activityTypes.includes(chosen);
  // Updating our own state while rendering is React's way to derive it from changed input.
  if (!stillPresent) setChosen(NO_FILTER);
  const active = stillPresent ? chosen : NO_FILTER;
  const shown = useMemo(
    () => (active === NO_FILTER ? messages : messages.filter((m) => m.activityType === active)),
    [messages, active],
  );
  return { chosen: active, setChosen, shown };
}
