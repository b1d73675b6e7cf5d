import { defineConfig } from "vitest/config";

// One runner for the whole repository: `npm test` runs every project and prints one summary.
export default defineConfig({
  test: {
    // A worker per core (Vitest's default leaves one core idle: a single worker on two cores).
    // The unit files mostly wait on servers, processes and databases they start, so two at once
    // on two cores halve the run; the browser project stays one file at a time (below).
    maxWorkers: "100%",
    projects: [
      {
        test: {
          name: "server",
          root: "server",
          include: ["src/**/*.test.ts", "test/**/*.test.ts"],
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
          // One Chromium and one server per file; two cores cannot run more at once.
          fileParallelism: false,
        },
      },
    ],
  },
});
