import { describe, expect, it } from "vitest";
import { freshDatabaseUrl } from "../test/fresh.ts";
import { startTestServer } from "../test/server.ts";
import { openDatabase } from "./db/open.ts";

describe("startServer", () => {
  it("listens on a free port and takes its URL as the base URL unless one is given", async () => {
    const server = await startTestServer();
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(server.services.config.baseUrls).toEqual([server.url]);
    } finally {
      await server.close();
    }
    const given = await startTestServer({ baseUrls: ["https://social.example"] });
    await given.close();
    expect(given.services.config.baseUrls).toEqual(["https://social.example"]);
  });

  it("lets tracked background work finish before closing the database", async () => {
    const database = freshDatabaseUrl();
    const server = await startTestServer({ database });
    const work = server.services.tasks!.track(
      (async () => {
        await new Promise((resolve) => setTimeout(resolve, 200));
        await server.services.db.run(
          `INSERT INTO accounts (name, password_hash, created_at) VALUES ('late', 'x', 0)`,
        );
      })(),
    );
    await server.close();
    await work;
    const { db } = await openDatabase(database);
    expect(await db.all(`SELECT name FROM accounts`)).toEqual([{ name: "late" }]);
    await db.close();
  });
});
