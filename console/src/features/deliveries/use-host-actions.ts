import { useState } from "react";
import { actOnHost } from "./host-client.ts";
import type { HostAction, HostFailedDelivery } from "../../lib/host-health.ts";
import { redeliverTrigger } from "../../lib/trigger-client.ts";

/** What runs now: one action at a time, so two clicks cannot race each other. */
export type HostWork = { host: string; action: HostAction | "redeliver"; inbox?: string };

/** What the last action did, in words: success as a status, failure as an alert. */
export type HostNotice = { ok: boolean; text: string };

const LABELS: Record<HostAction, string> = {
  stop: "Stop delivery",
  resume: "Resume delivery",
  retry: "Retry now",
};

const DONE: Record<HostAction, (host: string) => string> = {
  stop: (host) => `Delivery to ${host} stopped: its deliveries wait in the queue.`,
  resume: (host) => `Delivery to ${host} resumed: the waiting deliveries are being sent.`,
  retry: (host) => `The failed deliveries to ${host} are being sent again.`,
};

/** Per-host actions and redelivery; each success asks the server for the new state. */
export function useHostActions(onDone: () => void) {
  const [working, setWorking] = useState<HostWork | null>(null);
  const [notice, setNotice] = useState<HostNotice | null>(null);

  const act = async (host: string, action: HostAction) => {
    setWorking({ host, action });
    setNotice(null);
    const answer = await actOnHost(host, action);
    setWorking(null);
    if (answer.ok) onDone();
    setNotice(
      answer.ok
        ? { ok: true, text: DONE[action](host) }
        : { ok: false, text: `${LABELS[action]} for ${host} failed: ${answer.reason}` },
    );
  };

  const redeliver = async (host: string, delivery: HostFailedDelivery) => {
    if (delivery.triggerId === null) return;
    setWorking({ host, action: "redeliver", inbox: delivery.inbox });
    setNotice(null);
    const answer = await redeliverTrigger(delivery.triggerId, delivery.inbox);
    setWorking(null);
    if (answer.ok) onDone();
    setNotice(
      answer.ok
        ? { ok: true, text: `The delivery to ${delivery.inbox} is back in the queue.` }
        : { ok: false, text: `Redeliver to ${delivery.inbox} failed: ${answer.reason}` },
    );
  };

  return { working, notice, act, redeliver };
}

/** What a progress indicator beside a control says while its action runs. */
export function describeWork(work: HostWork): string {
  switch (work.action) {
    case "stop":
      return `Stopping delivery to ${work.host}`;
    case "resume":
      return `Resuming delivery to ${work.host}`;
    case "retry":
      return `Retrying ${work.host}`;
    case "redeliver":
      return `Redelivering to ${work.inbox}`;
  }
}
