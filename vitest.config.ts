import { defineConfig } from "vitest/config";

// One runner for the whole repository: `npm test` runs every project and prints one summary.
export default defineConfig({
  test: {
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
