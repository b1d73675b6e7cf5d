import { useCallback, useState } from "react";
import { useNavigate, useSearchParams } from "react-router";
import { callFe } from "../../lib/fe-client.ts";
import { readErrorDetail } from "../../lib/fe-error-detail.ts";
import {
  usePerformHistory,
  type PerformCall,
  type PerformOutcome,
} from "../../lib/perform-history-store.ts";
import { TRIGGER_ID_HEADER } from "../../lib/trigger-record.ts";
import { useUserStore } from "../../lib/user-store.ts";
import type { AccountInfo, TriggerRequest } from "../../lib/wire-types.ts";

export type PerformState = {
  /** The method of the call on its way, or null. */
  sending: string | null;
  /** The last call made from this page. */
  latest: PerformCall | null;
  /** How many calls this page has made: each one brings "Result" into view. */
  calls: number;
  perform: (method: string, body: TriggerRequest) => Promise<void>;
};

/**
 * Posts a body to /actor/trigger/{method} and says truthfully what came back. The call goes into
 * the history; a recorded one (Corral-Trigger-Id) is opened at /perform?call={id}, so that a
 * reload still shows it.
 */
export function usePerform(): PerformState {
  const [sending, setSending] = useState<string | null>(null);
  const [latest, setLatest] = useState<PerformCall | null>(null);
  const [calls, setCalls] = useState(0);
  const record = usePerformHistory((state) => state.record);
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const showingCall = params.has("call");

  const perform = useCallback(
    async (method: string, body: TriggerRequest) => {
      setSending(method);
      setCalls((count) => count + 1);
      const at = new Date().toISOString();
      const outcome = await send(method, body);
      // The deleted actor leaves the "Open" menu and stops being the one acted as: at once when
      // the server checked the call before answering (a trigger record); after a server that only
      // hands calls over (cattle_grid answers 202 to any body) lists it no more.
      if (method === "delete_actor" && outcome.kind === "recorded")
        useUserStore.getState().forgetActor(body.actor);
      if (method === "delete_actor" && outcome.kind === "handed-over")
        void followInfoUntilGone(body.actor);
      const key = `${at}-${Math.random().toString(36).slice(2)}`;
      const call: PerformCall = { key, method, body, at, outcome };
      record(call);
      setLatest(call);
      setSending(null);
      if (outcome.kind === "recorded") {
        navigate(`/perform?call=${encodeURIComponent(outcome.triggerId)}`);
      } else if (showingCall) {
        // The call shown before is not the answer to this one.
        navigate("/perform", { replace: true });
      }
    },
    [record, navigate, showingCall],
  );

  return { sending, latest, calls, perform };
}

/** How long after a handed-over delete_actor the account info is asked again, in ms. */
export const INFO_RECHECKS_MS = [500, 1_000, 2_000, 4_000];

/**
 * Asks the account info again until it no longer lists `actorId` (the answer replaces the actors
 * held, as every info answer does) or the rechecks run out: an actor the server kept stays.
 */
async function followInfoUntilGone(actorId: string): Promise<void> {
  for (const delay of INFO_RECHECKS_MS) {
    await new Promise((resolve) => setTimeout(resolve, delay));
    const result = await callFe<AccountInfo>("/account/info").catch(() => null);
    if (!result?.ok || !Array.isArray(result.data.actors)) continue;
    if (result.data.actors.some((actor) => actor.id === actorId)) continue;
    const { applyAccountInfo, methodInformations } = useUserStore.getState();
    applyAccountInfo(result.data.actors, result.data.methodInformation ?? methodInformations);
    return;
  }
}

async function send(method: string, body: TriggerRequest): Promise<PerformOutcome> {
  try {
    const result = await callFe(`/actor/trigger/${encodeURIComponent(method)}`, {
      body,
      readHeaders: [TRIGGER_ID_HEADER],
    });
    // The answer goes to the browser's console; the page does not show its shape.
    console.log(`perform ${method}`, result.status, result.data);
    if (!result.ok && result.status === 0) {
      return { kind: "unreachable", reason: readErrorDetail(result.data).detail };
    }
    if (!result.ok)
      return { kind: "refused", status: result.status, ...readErrorDetail(result.data) };
    const triggerId = result.headers?.[TRIGGER_ID_HEADER];
    if (triggerId) return { kind: "recorded", status: result.status, triggerId, summary: null };
    return { kind: "handed-over", status: result.status };
  } catch (failure) {
    console.log(`perform ${method}`, 0, String(failure));
    return { kind: "unreachable", reason: String(failure) };
  }
}
