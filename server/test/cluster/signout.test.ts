import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccount } from "../../src/accounts/index.ts";
import type { Db } from "../../src/db/db.ts";
import { openDatabase } from "../../src/db/open.ts";
import { corral, startCorral, type CorralProcess } from "../../../test-kit/corral-process.ts";
import { createTestDatabase, type TestDatabase } from "../db/postgres-test-database.ts";
import { signIn } from "../../../test-kit/sign-in.ts";

// Issue 25, item 2, across processes: two `corral serve` on one PostgreSQL. A stream held by one
// process closes within 2 s when its token ends through the other (sign-out) or through
// `corral account revoke-tokens` / `password` (a third process), not at the next keep-alive (15 s).

let database: TestDatabase;
let db: Db;
let servers: CorralProcess[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  ({ db } = await openDatabase(database.url, { pool: 2 }));
  const account = await createAccount(db, { name: "sam", password: "sam-password" });
  if (!account.ok) throw new Error(account.error);
  const common = ["--database", database.url, "--base-url", "http://corral.signout"];
  servers = await Promise.all(
    [1, 2].map(() => startCorral({ port: 0, args: [...common, "--role", "web"] })),
  );
}, 180_000); // processes that start slowly on a loaded machine (test-kit/corral-process.ts)

afterAll(async () => {
  await Promise.all(servers.map((p) => p.stop()));
  await db?.close();
  await database?.drop();
});

/** Opens the incoming stream on `target`; `within(ms)` says how it ended, or that it is still open. */
async function openStream(target: CorralProcess, token: string) {
  const controller = new AbortController();
  const response = await fetch(`${target.url}/fe/account/stream/incoming`, {
    headers: { Authorization: `Bearer ${token}` },
    signal: controller.signal,
  });
  expect(response.status).toBe(200);
  const reader = response.body!.getReader();
  const ended = (async () => {
    try {
      while (!(await reader.read()).done);
      return "ended by the server";
    } catch {
      return "aborted";
    }
  })();
  return {
    within(ms: number) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const open = new Promise<string>((resolve) => {
        timer = setTimeout(() => resolve(`still open after ${ms} ms`), ms);
      });
      return Promise.race([ended, open]).finally(() => clearTimeout(timer));
    },
    close: () => controller.abort(),
  };
}

describe("streams end with their token on every process (PostgreSQL)", () => {
  it("sign-out through one process closes the token's stream on the other within 2 s", async () => {
    const [a, b] = servers as [CorralProcess, CorralProcess];
    const token = await signIn(a, "sam");
    const other = await signIn(a, "sam");
    const stream = await openStream(a, token);
    const kept = await openStream(b, other);
    try {
      const signout = await fetch(`${b.url}/fe/signout`, {
        method: "POST",
        headers: { Authorization: `Bearer ${token}` },
      });
      expect(signout.status).toBe(204);
      expect(await stream.within(2_000)).toBe("ended by the server");
      expect(await kept.within(1_000)).toBe("still open after 1000 ms");
    } finally {
      stream.close();
      kept.close();
    }
  });

  it("`corral account revoke-tokens` and `account password` close the streams on both processes within 2 s", async () => {
    for (const command of [
      ["revoke-tokens", "sam"],
      ["password", "sam", "sam-password"],
    ]) {
      const streams = await Promise.all(
        servers.map(async (server) => openStream(server, await signIn(server, "sam"))),
      );
      try {
        corral(database.url, "account", ...command);
        for (const stream of streams)
          expect(await stream.within(2_000), command[0]).toBe("ended by the server");
      } finally {
        for (const stream of streams) stream.close();
      }
    }
  });
});
