// A message linked by its id (`?event=N`: Perform's "Outgoing message 36", Deliveries, "Show
// call") that this browser does not hold, because it arrived before the browser connected or was
// reset: asked of the server by id (docs/server-guide.md#history, `id=`), so the link still opens it.
import { useEffect, useState } from "react";
import { fetchEventById } from "../../lib/streams/event-history.ts";
import type { StreamMessage, StreamType } from "../../lib/streams/stream-store.ts";
import { toMessages } from "./use-server-search.ts";

export type LinkedEvent =
  | { kind: "none" }
  | { kind: "waiting" }
  | { kind: "found"; message: StreamMessage }
  | { kind: "gone" }
  | { kind: "failed"; reason: string };

type Answer = { key: string; result: LinkedEvent };

/** `wanted`: the stream and id to ask for, or null when nothing is linked or it is held. */
export function useLinkedEvent(wanted: { stream: StreamType; id: string } | null): LinkedEvent {
  const key = wanted ? `${wanted.stream}:${wanted.id}` : null;
  const [answer, setAnswer] = useState<Answer | null>(null);
  useEffect(() => {
    if (!wanted || key === null) return;
    const controller = new AbortController();
    const settle = (result: LinkedEvent) => {
      if (!controller.signal.aborted) setAnswer({ key, result });
    };
    fetchEventById(wanted.stream, wanted.id, controller.signal)
      .then((found) => {
        if (!found.ok) settle({ kind: "failed", reason: found.reason });
        else if (found.event === null) settle({ kind: "gone" });
        else settle({ kind: "found", message: toMessages([found.event])[0]! });
      })
      .catch((error: unknown) =>
        settle({ kind: "failed", reason: error instanceof Error ? error.message : String(error) }),
      );
    return () => controller.abort();
    // `key` stands for `wanted`, a new object at each render that would restart the fetch.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  if (key === null) return { kind: "none" };
  return answer?.key === key ? answer.result : { kind: "waiting" };
}
