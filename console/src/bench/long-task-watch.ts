/**
 * Watches the main thread: long tasks (over 50 ms, as Chromium reports them) and the longest gap
 * between animation frames, which also catches janky stretches made of shorter tasks.
 */
export function startLongTaskWatch() {
  const origin = performance.now();
  const longTasks: Array<{ atMs: number; durationMs: number }> = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      longTasks.push({
        atMs: Math.round(entry.startTime - origin),
        durationMs: Math.round(entry.duration),
      });
    }
  });
  observer.observe({ type: "longtask", buffered: false });
  let longestFrameGap = 0;
  let frames = 0;
  let last = performance.now();
  let running = true;
  const tick = (now: number) => {
    if (!running) return;
    longestFrameGap = Math.max(longestFrameGap, now - last);
    last = now;
    frames++;
    requestAnimationFrame(tick);
  };
  requestAnimationFrame((now) => {
    last = now;
    requestAnimationFrame(tick);
  });
  return {
    read: () => ({
      longTaskCount: longTasks.length,
      longestTaskMs: Math.max(0, ...longTasks.map((task) => task.durationMs)),
      longTasks: longTasks.slice(0, 20),
      longestFrameGapMs: longestFrameGap,
      frames,
    }),
    stop: () => {
      running = false;
      observer.disconnect();
    },
  };
}
