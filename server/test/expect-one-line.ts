// What a command line's failure looks like to its operator. Running `corral …` itself is
// test-kit/corral-process.ts (runCli, runCliAsync, launchCorral, startCorral).

import { expect } from "vitest";

/** Exactly one line on stderr, matching `pattern`, and no stack trace. */
export function expectOneLine(stderr: string, pattern: RegExp) {
  const lines = stderr.trimEnd().split("\n");
  expect(lines, stderr).toHaveLength(1);
  expect(lines[0]).toMatch(pattern);
  expect(stderr).not.toMatch(/\n\s+at /);
}
