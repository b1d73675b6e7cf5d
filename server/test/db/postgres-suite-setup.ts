// Global setup of postgres-suite.config.ts: names this run's databases, and drops them at the end.

import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { TEST_POSTGRES_ADMIN_URL } from "./postgres-test-database.ts";

export default function setup() {
  const prefix = `corral_suite_${randomBytes(3).toString("hex")}_`;
  process.env.CORRAL_PG_SUITE_PREFIX = prefix;
  return async function teardown() {
    const sql = postgres(TEST_POSTGRES_ADMIN_URL, { max: 1, onnotice: () => {} });
    try {
      const rows = await sql<
        { datname: string }[]
      >`SELECT datname FROM pg_database WHERE starts_with(datname, ${prefix})`;
      for (const { datname } of rows)
        await sql.unsafe(`DROP DATABASE IF EXISTS ${datname} WITH (FORCE)`);
    } finally {
      await sql.end();
    }
  };
}
