import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineConfig } from "vitest/config";
import RunOrder from "./test-peers/run-order.ts";

// Node's compile cache for every Node process the run starts (Vitest's workers, each `corral
// serve` and `corral account …`, the benches): the tests start Corral some hundreds of times, and
// each start compiled the same modules again. A third less CPU for a file that runs the command
// line (server/src/cli/help.test.ts: 3.5 CPU-s to 2.3, paired runs). Node checks each entry
// against its source, so a changed file is compiled afresh; one set in the environment wins.
process.env.NODE_COMPILE_CACHE ||= join(tmpdir(), "corral-node-compile-cache");

// One runner for the whole repository: `npm test` runs every project and prints one summary.
export default defineConfig({
  test: {
    // Two workers per core. The files mostly wait on servers, processes, browsers and databases
    // they start: with a worker per core the machine stayed half idle. On two cores, with the
    // compile cache below, `npm run test:unit` took 232–266 s in three runs against 389 s with two
    // workers (and no cache), the browser suite 395 s against 485 s; every test passed
    // (CONTRIBUTING.md#what-the-tests-need).
    maxWorkers: "200%",
    // Vitest's order, except that files running a Python peer wait for their virtualenv's build.
    sequence: { sequencer: RunOrder },
    // The console's files run in VM contexts (console/vite.config.ts): a lazy screen or module
    // that a file's last test started loading, and the file ended before it arrived, is refused
    // by the file's closed module runner, and that refusal reached the run as an unhandled error
    // (in a process per file it went with the process). It is no error of the console's.
    onUnhandledError: (error) => !/Vite module runner has been closed/.test(error.message),
    projects: [
      {
        test: {
          name: "server",
          root: "server",
          include: ["src/**/*.test.ts", "test/**/*.test.ts"],
          // Starts building the Python peers' virtualenvs (a fresh clone) in the background.
          globalSetup: ["test/global-setup.ts"],
          environment: "node",
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      "console/vite.config.ts",
      {
        test: {
          name: "e2e",
          root: "e2e",
          include: ["**/*.e2e.ts"],
          globalSetup: ["global-setup.ts"],
          environment: "node",
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // One server per file, one Chromium for the run, two files per core at once (the root's
          // maxWorkers): a browser test mostly waits (on the server, on timers, on a cattle_grid
          // starting), and even two at once on two cores left the machine idle half the time.
        },
      },
    ],
  },
});
