// Small helpers of the real-peer harness: finding a program, and errors that read as one line.

import { existsSync } from "node:fs";
import { delimiter, join } from "node:path";

/** The program's path on PATH, or in the sbin folders a non-root PATH lacks; null when missing. */
export function findProgram(name: string): string | null {
  const dirs = (process.env.PATH ?? "").split(delimiter).filter(Boolean);
  for (const dir of [...dirs, "/usr/local/sbin", "/usr/sbin", "/sbin"]) {
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
