// Whether the server behind /fe answers at all, as the one fetch wrapper and the one SSE owner
// see it. A gateway's 502, 503 or 504 (nginx, Corral's own proxy mode) or no answer at all means
// "not now", not "no": the call is worth repeating once the server is back. Any other answer means
// it is back, and whoever waits for that (a stream waiting to reconnect, a page that failed to
// load) hears of it at once instead of at its next timer.
import { useStore } from "zustand";
import { createStore } from "zustand/vanilla";

export type Reachability = {
  /** Null while the server answers; else why it does not, in words, and since when (ms). */
  away: { reason: string; since: number } | null;
};

export const reachability = createStore<Reachability>()(() => ({ away: null }));

/** The statuses a gateway answers for a server it cannot reach or that is not ready. */
export function isGatewayStatus(status: number): boolean {
  return status === 502 || status === 503 || status === 504;
}

/** The words every page shows for a server that is away (pages add their own full stop). */
export function describeAway(cause: string): string {
  return `The server is not answering (${cause})`;
}

export function noteServerAway(cause: string, now = Date.now()): void {
  const { away } = reachability.getState();
  reachability.setState({ away: { reason: cause, since: away?.since ?? now } });
}

export function noteServerAnswered(): void {
  if (reachability.getState().away !== null) reachability.setState({ away: null });
}

/** Calls `onBack` each time the server answers again after having been away. */
export function onServerBack(onBack: () => void): () => void {
  return reachability.subscribe((state, previous) => {
    if (previous.away !== null && state.away === null) onBack();
  });
}

export function useServerAway(): Reachability["away"] {
  return useStore(reachability, (state) => state.away);
}
