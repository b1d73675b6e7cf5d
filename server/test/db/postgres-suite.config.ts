import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// The whole server suite on PostgreSQL instead of SQLite:
//   npx vitest run --config server/test/db/postgres-suite.config.ts
// Every test's "fresh database" (server/test/fresh.ts) becomes a fresh PostgreSQL database;
// nothing else changes. The db/ tests are left out: they cover both dialects already.

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  resolve: {
    alias: [
      { find: /^(\.\.?\/)+(test\/)?fresh\.ts$/, replacement: here("./postgres-suite-fresh.ts") },
    ],
  },
  test: {
    root: here("../.."),
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    exclude: ["src/db/**"],
    environment: "node",
    globalSetup: [here("./postgres-suite-setup.ts")],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
