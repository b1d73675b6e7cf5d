import { useMemo } from "react";
import { useSearchParams } from "react-router";
import type { StreamMessage } from "../../lib/streams/stream-store.ts";
import type { ListRow } from "./list-rows.ts";
import { useLinkedEvent } from "./use-linked-event.ts";
import type { StreamSource } from "./use-live-messages.ts";

/**
 * ?event=N: the message a call's record links to (its id on this stream), shown and marked. A
 * linked message this browser does not hold is asked of the server by its id.
 */
export function useEventFocus(
  source: StreamSource,
  rows: readonly ListRow[],
  liveMessages: readonly StreamMessage[],
) {
  const [params] = useSearchParams();
  const event = source === "all" ? null : params.get("event");
  const focusKey = useMemo(() => findEventRow(rows, event), [rows, event]);
  const linkedWanted = useMemo(
    () =>
      event !== null && source !== "all" && !liveMessages.some((m) => m.id === event)
        ? { stream: source, id: event }
        : null,
    [event, source, liveMessages],
  );
  const linked = useLinkedEvent(focusKey === null ? linkedWanted : null);
  return { event, focusKey, linked };
}

/** The key of the row holding the message with this stream id, or null. */
function findEventRow(rows: readonly ListRow[], event: string | null): string | null {
  if (event === null) return null;
  const row = rows.find((r) => r.kind === "message" && r.message.id === event);
  return row?.key ?? null;
}
