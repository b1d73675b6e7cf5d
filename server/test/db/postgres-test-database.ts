import { randomBytes } from "node:crypto";
import postgres from "postgres";

// For tests: a fresh, empty PostgreSQL database per suite, dropped afterwards. The server at
// 127.0.0.1:5432 (trust auth, user postgres, database `test`) runs here and in CI; when it does
// not answer, the test fails with one line saying so, never skips.

export const TEST_POSTGRES_ADMIN_URL =
  process.env.CORRAL_TEST_POSTGRES ?? "postgres://postgres@127.0.0.1:5432/test";

export interface TestDatabase {
  /** A `postgres://` URL of the fresh database. */
  url: string;
  drop(): Promise<void>;
}

export async function createTestDatabase(
  adminUrl = TEST_POSTGRES_ADMIN_URL,
): Promise<TestDatabase> {
  const name = `corral_test_${randomBytes(6).toString("hex")}`;
  const admin = postgres(adminUrl, { max: 1, connect_timeout: 5, onnotice: () => {} });
  try {
    await admin.unsafe(`CREATE DATABASE ${name}`);
  } catch (error) {
    await admin.end({ timeout: 0 });
    throw new Error(
      `PostgreSQL tests need a server at ${adminUrl} (set CORRAL_TEST_POSTGRES to another): ${(error as Error).message}`,
      { cause: error },
    );
  }
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    async drop() {
      const sql = postgres(adminUrl, { max: 1, connect_timeout: 5, onnotice: () => {} });
      try {
        // FORCE: a test that failed midway may still hold connections.
        await sql.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await sql.end();
      }
    },
  };
}
