import { useState } from "react";

export const NO_FILTER = "";

/**
 * The chosen activity type. When it disappears from the messages (a reset, old messages dropped)
 * the filter returns to "Don't filter".
 */
export function useTypeFilter(activityTypes: readonly string[]) {
  const [chosen, setChosen] = useState(NO_FILTER);
  const stillPresent = chosen === NO_FILTER || activityTypes.includes(chosen);
  // Updating our own state while rendering is React's way to derive it from changed input.
  if (!stillPresent) setChosen(NO_FILTER);
  return { chosen: stillPresent ? chosen : NO_FILTER, setChosen };
}
