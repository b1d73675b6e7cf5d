// Stands in for server/test/fresh.ts when the whole server suite runs on PostgreSQL
// (postgres-suite.config.ts): every "fresh database" is a fresh PostgreSQL database, created
// synchronously because freshDatabaseUrl() is synchronous. postgres-suite-setup.ts drops them.

import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { openDatabase } from "../../src/db/open.ts";
import { TEST_POSTGRES_ADMIN_URL } from "./postgres-test-database.ts";

export function freshDatabaseUrl(): string {
  const prefix = process.env.CORRAL_PG_SUITE_PREFIX ?? "corral_suite_";
  const name = `${prefix}${randomBytes(5).toString("hex")}`;
  execFileSync("psql", [TEST_POSTGRES_ADMIN_URL, "-qc", `CREATE DATABASE ${name}`]);
  const url = new URL(TEST_POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return url.href;
}

export async function openFreshDatabase() {
  return openDatabase(freshDatabaseUrl());
}
