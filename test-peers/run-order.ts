// The order of a run's test files (vitest.config.ts: `sequence.sequencer`): Vitest's own (the
// longest first by the last run's durations, else the largest file first), except for the files
// that run a Python peer (a test file, or a module it imports, naming a peer of test-peers/).
//
// - While a virtualenv they need is still being built (a fresh clone: the global setups start
//   every missing build at once, python-venv.ts), they go last, so that no worker sits waiting
//   for pip while other files could run.
// - Once built, they go first: they are among the longest (a cattle_grid takes 10–25 s to start),
//   and one of them left for the end would run alone while the other worker has nothing to do.

import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { BaseSequencer, type TestProject, type TestSpecification } from "vitest/node";
import { peerRequirements, venvReady } from "./python-venv.ts";

/** A peer module, or a requirements file, named in source text. */
const PEER = /test-peers\/(cattle-grid|almabtrieb|pasture|roboherd)\.ts|requirements-[\w-]+\.txt/;
const RELATIVE_IMPORT = /from\s+["'](\.{1,2}\/[^"']+\.tsx?)["']/g;

/** Whether `file`, or a module it imports from this repository (two levels deep), names a peer. */
function runsPythonPeer(file: string, depth = 2): boolean {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return false;
  }
  if (PEER.test(text)) return true;
  if (depth === 0) return false;
  for (const [, path] of text.matchAll(RELATIVE_IMPORT)) {
    const imported = resolve(dirname(file), path!);
    if (!imported.includes("/node_modules/") && runsPythonPeer(imported, depth - 1)) return true;
  }
  return false;
}

export default class RunOrder extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const peers = sorted.filter((spec) => runsPythonPeer(spec.moduleId));
    if (peers.length === 0) return sorted;
    const others = sorted.filter((spec) => !peers.includes(spec));
    const built = peerRequirements().every((file) => venvReady(file));
    return built ? [...peers, ...others] : [...others, ...peers];
  }
}

/**
 * Whether the command line named files (a run of a few files builds a virtualenv only when one
 * of them asks). Vitest keeps them as the run's filename pattern, not a documented field: should
 * it move, this answers false and every run prebuilds, which costs time, never a result.
 */
export function namesFiles(project: TestProject): boolean {
  const pattern = (project.vitest as unknown as { filenamePattern?: unknown }).filenamePattern;
  return Array.isArray(pattern) && pattern.length > 0;
}
