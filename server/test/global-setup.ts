import type { TestProject } from "vitest/node";
import { prebuildVenvs } from "../../test-peers/python-venv.ts";
import { namesFiles } from "../../test-peers/run-order.ts";

// Runs once before the server project's files. A whole run (no file named on the command line,
// as in `npm test`) starts building the Python peers' virtualenvs a fresh clone lacks, all at
// once and in the background (test-peers/python-venv.ts): they mostly wait on downloads, and the
// files that use them run last meanwhile (test-peers/run-order.ts). A run of named files builds
// only what its files ask for, when they ask.
export default function setup(project: TestProject): (() => Promise<void>) | undefined {
  if (namesFiles(project)) return undefined;
  return prebuildVenvs();
}
