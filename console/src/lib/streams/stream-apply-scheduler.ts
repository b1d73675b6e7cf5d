// When a stream store applies its pending adds: on an animation frame (so the list renders once
// per batch), at most every MIN_APPLY_INTERVAL_MS, and on a plain timer when no frames come.

// Each apply costs O(messages held) (the list's measurements), so ~10 applies a second instead of
// 60 keeps every frame short at 200 messages/s.
const MIN_APPLY_INTERVAL_MS = 100;
// rAF does not run in background tabs, where the streams keep arriving (openWhenHidden).
const HIDDEN_TAB_APPLY_MS = 250;

export type ApplyScheduler = {
  /** Asks for one apply soon; repeated calls before it runs coalesce. */
  schedule: () => void;
  /** Call at the start of each apply, scheduled or not. */
  markApplied: () => void;
};

export function createApplyScheduler(apply: () => void): ApplyScheduler {
  let frame: number | null = null;
  let fallback: ReturnType<typeof setTimeout> | null = null;
  let spacing: ReturnType<typeof setTimeout> | null = null;
  let lastApplied = -Infinity;

  function cancel(): void {
    if (frame !== null && typeof cancelAnimationFrame === "function") cancelAnimationFrame(frame);
    if (fallback !== null) clearTimeout(fallback);
    if (spacing !== null) clearTimeout(spacing);
    frame = fallback = spacing = null;
  }

  return {
    schedule() {
      if (fallback !== null) return;
      fallback = setTimeout(apply, HIDDEN_TAB_APPLY_MS);
      if (typeof requestAnimationFrame !== "function") return;
      const requestFrame = () => (frame = requestAnimationFrame(apply));
      const wait = lastApplied + MIN_APPLY_INTERVAL_MS - performance.now();
      if (wait > 0) spacing = setTimeout(requestFrame, wait);
      else requestFrame();
    },
    markApplied() {
      cancel();
      lastApplied = performance.now();
    },
  };
}
