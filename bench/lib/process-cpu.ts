// CPU time of another process, all its threads (worker threads and libuv's pool included), read
// from /proc/<pid>/stat: utime + stime, in clock ticks of 10 ms on Linux.

import { readFileSync } from "node:fs";

const TICK_MS = 10; // USER_HZ is 100 on every Linux ABI Node supports

/** Milliseconds of CPU the process has used so far (user + system). */
export function processCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // The command name (field 2) may hold spaces and parentheses: count fields after its last ')'.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return (utime + stime) * TICK_MS;
}
