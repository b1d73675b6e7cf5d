import { useCallback, useState } from "react";
import { useNavigate } from "react-router";
import { usePerformDraftStore } from "../../lib/perform-draft-store.ts";
import { usePerformHistory } from "../../lib/perform-history-store.ts";
import type { StreamMessage } from "../../lib/streams/stream-store.ts";
import { fetchTriggerRecord } from "../../lib/trigger-client.ts";
import { useUserStore } from "../../lib/user-store.ts";
import { callPrefill, dataFor, performSourceOf, type PerformPrefill } from "./open-in-perform.ts";

export type OpenInPerform = {
  open: () => void;
  /** True while the call's record is being fetched. */
  opening: boolean;
  /** Why the call could not be opened, in words; null otherwise. */
  problem: string | null;
};

/** Fills Perform's form for this message (perform-draft-store) and goes there. */
export function useOpenInPerform(message: StreamMessage): OpenInPerform {
  const navigate = useNavigate();
  const [opening, setOpening] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  const go = useCallback(
    (prefill: PerformPrefill) => {
      const { actors, currentActor, setCurrentActor } = useUserStore.getState();
      // As the actor the message is about, when it is one of the account's.
      const acting =
        prefill.actor !== null && actors.some((actor) => actor.id === prefill.actor)
          ? prefill.actor
          : currentActor;
      if (acting !== null && acting !== currentActor) setCurrentActor(acting);
      const draft = usePerformDraftStore.getState();
      draft.setMethod(prefill.method);
      draft.setText(JSON.stringify(dataFor(prefill, acting), null, 2));
      navigate("/perform");
    },
    [navigate],
  );

  const open = useCallback(() => {
    const source = performSourceOf(message);
    if (source.kind === "prefill") return go(source.prefill);
    // A call made from this browser is in Perform's history; another's is in the server's record.
    const made = usePerformHistory
      .getState()
      .calls.find(
        (call) => call.outcome.kind === "recorded" && call.outcome.triggerId === source.triggerId,
      );
    if (made) return go(callPrefill(made.method, made.body, made.body.actor));
    setOpening(true);
    setProblem(null);
    void fetchTriggerRecord(source.triggerId).then((answer) => {
      setOpening(false);
      if (!answer.ok) return setProblem(`Could not open the call: ${answer.reason}`);
      const { record } = answer;
      if (!record.data) {
        return setProblem("Could not open the call: the server's record of it has no data");
      }
      go(callPrefill(record.method, record.data, record.actor));
    });
  }, [message, go]);

  return { open, opening, problem };
}
