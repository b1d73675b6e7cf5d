// CPU time of another process, all its threads (worker threads and libuv's pool included).
// Each live thread's time on a CPU from /proc/<pid>/task/<tid>/schedstat, in nanoseconds; where
// the kernel does not give schedstat, utime + stime from /proc/<pid>/stat, in clock ticks of
// 10 ms. The ticks made a 250 ms round's figure move by ±4% (issue 34's guard compares rounds that
// short); schedstat has none of that. (A thread that has exited drops out of the task list, so
// schedstat suits processes whose threads live on, as Corral's do: its signing threads and
// libuv's pool stay.)

import { readdirSync, readFileSync } from "node:fs";

const TICK_MS = 10; // USER_HZ is 100 on every Linux ABI Node supports

/** Milliseconds of CPU the process has used so far. */
export function processCpuMs(pid: number): number {
  const precise = schedstatMs(pid);
  return precise ?? statMs(pid);
}

function schedstatMs(pid: number): number | undefined {
  let total = 0;
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        total += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ")[0]);
      } catch (error) {
        // A thread that ended between the listing and the read: its time is gone with it.
        if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      }
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  return Number.isFinite(total) && total > 0 ? total / 1e6 : undefined;
}

function statMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // The command name (field 2) may hold spaces and parentheses: count fields after its last ')'.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return (utime + stime) * TICK_MS;
}

/**
 * Milliseconds of CPU so far of each live thread of the process, summed by thread name (its
 * `comm`: Node's main thread is `MainThread`, a worker_threads thread its `name`, V8's helpers
 * `V8Worker`, libuv's pool `libuv-worker`). Schedstat only; empty where the kernel has none.
 */
export function threadCpuMs(pid: number): Map<string, number> {
  const byName = new Map<string, number>();
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return byName;
  }
  for (const tid of tids) {
    try {
      const name = readFileSync(`/proc/${pid}/task/${tid}/comm`, "utf8").trim();
      const ns = Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ")[0]);
      if (Number.isFinite(ns)) byName.set(name, (byName.get(name) ?? 0) + ns / 1e6);
    } catch {
      // a thread that ended between the listing and the read
    }
  }
  return byName;
}

/**
 * Waits until the process's CPU time stands still for two looks 50 ms apart (its tail of work
 * after a round is done), or `timeoutMs` have passed.
 */
export async function cpuSettled(pid: number, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = processCpuMs(pid);
  let still = 0;
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    const now = processCpuMs(pid);
    still = now === last ? still + 1 : 0;
    if (still >= 2) return;
    last = now;
  }
}
