// Shared test helpers: every test gets its own SQLite file in a fresh temporary directory.

import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase } from "../src/db/open.ts";

/** A `sqlite:` URL naming a file that does not exist yet. */
export function freshDatabaseUrl(): string {
  return `sqlite:${join(mkdtempSync(join(tmpdir(), "corral-test-")), "corral.sqlite")}`;
}

/** A migrated, empty database on a fresh file. */
export async function openFreshDatabase() {
  return openDatabase(freshDatabaseUrl());
}
