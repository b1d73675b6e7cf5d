// Reads a Chromium trace for the renderer's main thread: each task's wall and CPU time. On a
// shared machine a task's wall time includes waiting for a core; its CPU time does not.
type TraceEvent = {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string };
};

export function summariseMainThreadTasks(trace: Buffer) {
  const { traceEvents } = JSON.parse(trace.toString("utf8")) as { traceEvents: TraceEvent[] };
  const mainThreads = new Set(
    traceEvents
      .filter((e) => e.name === "thread_name" && e.args?.name === "CrRendererMain")
      .map((e) => `${e.pid}:${e.tid}`),
  );
  const tasks = traceEvents.filter(
    (e) => e.name === "RunTask" && e.ph === "X" && mainThreads.has(`${e.pid}:${e.tid}`),
  );
  const wall = tasks.map((e) => (e.dur ?? 0) / 1000);
  const cpu = tasks.map((e) => (e.tdur ?? 0) / 1000);
  return {
    count: tasks.length,
    longestWallMs: Math.max(0, ...wall),
    longestCpuMs: Math.max(0, ...cpu),
    overWall: wall.filter((ms) => ms > 50).length,
    overCpu: cpu.filter((ms) => ms > 50).length,
    busyCpuMs: cpu.reduce((sum, ms) => sum + ms, 0),
    // When they happened tells start-up (mount, first compile) from steady streaming.
    overCpuAt: tasks
      .filter((e) => (e.tdur ?? 0) > 50_000)
      .map(
        (e) =>
          `${((e.ts - tasks[0]!.ts) / 1000).toFixed(0)} ms in: ${((e.tdur ?? 0) / 1000).toFixed(0)} ms CPU`,
      ),
  };
}
