import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { UniqueViolation } from "./db.ts";
import { openDatabase } from "./open.ts";

const freshUrl = () => `sqlite:${join(mkdtempSync(join(tmpdir(), "corral-db-")), "test.sqlite")}`;

describe("sqlite store", () => {
  it("creates the schema once and keeps data across reopen", async () => {
    const url = freshUrl();
    const first = await openDatabase(url);
    await first.db.run(
      "INSERT INTO accounts (name, password_hash, created_at) VALUES (?, ?, ?)",
      ["alice", "x", 1],
    );
    await first.db.close();
    const second = await openDatabase(url);
    expect(await second.db.all("SELECT name FROM accounts")).toEqual([{ name: "alice" }]);
    await second.db.close();
  });

  it("reports a duplicate key as UniqueViolation", async () => {
    const { db } = await openDatabase(freshUrl());
    const insert = () =>
      db.run("INSERT INTO accounts (name, password_hash, created_at) VALUES (?, ?, ?)", ["a", "x", 1]);
    await insert();
    await expect(insert()).rejects.toBeInstanceOf(UniqueViolation);
  });

  it("rolls a failed transaction back entirely", async () => {
    const { db } = await openDatabase(freshUrl());
    await expect(
      db.transaction(async (tx) => {
        await tx.run("INSERT INTO accounts (name, password_hash, created_at) VALUES (?, ?, ?)", ["b", "x", 1]);
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect(await db.all("SELECT * FROM accounts")).toEqual([]);
  });
});
