// Small helpers of the real-peer harness: finding a program, and errors that read as one line.

import { existsSync } from "node:fs";
import { delimiter, join } from "node:path";

/** PATH's folders, then the sbin folders a non-root PATH lacks (nginx, rabbitmqctl live there). */
export function searchPath(): string[] {
  const dirs = (process.env.PATH ?? "").split(delimiter).filter(Boolean);
  return [...dirs, "/usr/local/sbin", "/usr/sbin", "/sbin"];
}

/** The program's path in the first folder holding it; null when missing. */
export function findProgram(name: string, dirs = searchPath()): string | null {
  for (const dir of dirs) {
    const path = join(dir, name);
    if (existsSync(path)) return path;
  }
  return null;
}

/** An error whose report is its message alone: the reader needs the fix, not our stack. */
export function oneLineError(message: string): Error {
  const error = new Error(message);
  error.stack = message;
  return error;
}
