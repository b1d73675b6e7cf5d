import { useCallback, useEffect, useState } from "react";
import { fetchHosts } from "./host-client.ts";
import type { HostHealth } from "../../lib/host-health.ts";

let pollMs = 5000;

/** How often the open page asks again; tests shorten it. */
export function setHostPollMs(ms: number): void {
  pollMs = ms;
}

export type HostHealthState = {
  /** The latest list seen, kept while a later ask fails. */
  hosts: HostHealth[] | null;
  /** When `hosts` was read. */
  seenAt: Date | null;
  /** Why the latest ask failed, or null. */
  problem: string | null;
  /** The server has no delivery health to report (a real cattle_grid behind the proxy). */
  unsupported: boolean;
  /** The server refused the token: the page stops asking and offers to sign in again. */
  signedOut: boolean;
  /** True while an ask is under way. */
  fetching: boolean;
  /** How often it asks, in seconds. */
  everySeconds: number;
  /** Asks again at once (after an action), then keeps polling. */
  refresh: () => void;
};

/** The account's hosts, asked for every few seconds while the page is open and visible. */
export function useHostHealth(): HostHealthState {
  const [hosts, setHosts] = useState<HostHealth[] | null>(null);
  const [seenAt, setSeenAt] = useState<Date | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [unsupported, setUnsupported] = useState(false);
  const [signedOut, setSignedOut] = useState(false);
  const [fetching, setFetching] = useState(true);
  const [round, setRound] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    setSignedOut(false);
    const ask = async () => {
      // A hidden tab needs no fresh numbers; it asks again once it is looked at.
      if (document.hidden) return void (timer = setTimeout(ask, pollMs));
      setFetching(true);
      const answer = await fetchHosts(controller.signal).catch(() => null);
      if (controller.signal.aborted || answer === null) return;
      setFetching(false);
      if (answer.ok) {
        setHosts(answer.hosts);
        setSeenAt(new Date());
        setProblem(null);
      } else if (answer.unsupported) {
        return setUnsupported(true); // the route will not appear by asking again
      } else {
        setProblem(answer.reason);
        if (answer.signedOut) return setSignedOut(true);
      }
      timer = setTimeout(ask, pollMs);
    };
    void ask();
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [round]);

  const refresh = useCallback(() => setRound((n) => n + 1), []);
  return {
    hosts,
    seenAt,
    problem,
    unsupported,
    signedOut,
    fetching,
    refresh,
    everySeconds: pollMs / 1000,
  };
}
