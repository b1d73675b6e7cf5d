import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCliAsync } from "../../../test-kit/corral-process.ts";
import { expectOneLine } from "../../test/expect-one-line.ts";
import { freshDatabaseUrl } from "../../test/fresh.ts";
import { createAccount } from "../accounts/index.ts";
import { createActor } from "../actors/index.ts";
import { openDatabase } from "../db/open.ts";

// `corral lookup` as a process against a real HTTP server on loopback that records who signed.

const base = "http://localhost:3000";
let database: string;
let alice: string;
let carol: string;
let remote: Server;
let origin: string;
const signers: string[] = [];

function keyIdOf(request: IncomingMessage): string {
  return /keyId="([^"]+)"/.exec(String(request.headers.signature ?? ""))?.[1] ?? "unsigned";
}

beforeAll(async () => {
  database = freshDatabaseUrl();
  const { db } = await openDatabase(database);
  const account = await createAccount(db, { name: "ops", password: "ops-password", admin: true });
  if (!account.ok) throw new Error(account.error);
  const made = [];
  for (const handle of ["alice", "carol"]) {
    const result = await createActor(db, { accountId: account.account.id, baseUrl: base, handle });
    if (!result.ok) throw new Error(result.error);
    made.push(result.actor.id);
  }
  [alice, carol] = made as [string, string];
  await db.close();
  remote = createServer((request, response) => {
    signers.push(keyIdOf(request));
    if (request.url === "/slow") return; // never answers
    if (request.url !== "/note") return void response.writeHead(404).end("no such thing");
    response.writeHead(200, { "Content-Type": "application/activity+json" });
    response.end(JSON.stringify(note()));
  });
  await new Promise<void>((resolve) => remote.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(remote.address() as AddressInfo).port}`;
});

afterAll(() => {
  remote.closeAllConnections();
  remote.close();
});

function note() {
  return {
    "@context": "https://www.w3.org/ns/activitystreams",
    id: `${origin}/note`,
    type: "Note",
    attributedTo: `${origin}/actor`,
    content: "<p>hi</p>",
  };
}

function lookup(...args: string[]) {
  return runCliAsync(["lookup", ...args, "--database", database, "--allow-private-addresses"]);
}

describe("corral lookup", () => {
  it("prints the document as pretty JSON, signed as the oldest actor", async () => {
    const result = await lookup(`${origin}/note`);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(note());
    expect(result.stdout).toContain('\n  "type": "Note"');
    expect(signers.at(-1)).toBe(`${alice}#main-key`);
  });

  it("signs as the actor --as names: by name, by handle or by id", async () => {
    for (const as of ["carol", "@carol@localhost:3000", carol]) {
      const result = await lookup(`${origin}/note`, "--as", as);
      expect(result.code, result.stderr).toBe(0);
      expect(signers.at(-1)).toBe(`${carol}#main-key`);
    }
  });

  it("says which actors there are when --as names none", async () => {
    const result = await lookup(`${origin}/note`, "--as", "dave");
    expect(result.code).toBe(1);
    expectOneLine(
      result.stderr,
      /^corral: --as: no actor "dave" here; there are: acct:alice@localhost:3000, acct:carol@localhost:3000$/,
    );
  });

  it("prints the parsed form with --parsed", async () => {
    const result = await lookup(`${origin}/note`, "--parsed");
    expect(result.code, result.stderr).toBe(0);
    // muck_out's view: addressed to no one, so to the actor it was fetched as.
    expect(JSON.parse(result.stdout)).toMatchObject({
      object: { id: `${origin}/note`, contentPlain: "hi", to: [expect.any(String)] },
    });
  });

  it("answers a local handle from the database", async () => {
    const result = await lookup("acct:alice@localhost:3000");
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ id: alice, preferredUsername: "alice" });
  });

  it("reports a failed fetch in one line with exit code 1", async () => {
    const result = await lookup(`${origin}/missing`);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expectOneLine(result.stderr, /^corral: .*\/missing answered 404.*no such thing/);
  });

  it("refuses a loopback address without --allow-private-addresses", async () => {
    const result = await runCliAsync(["lookup", `${origin}/note`, "--database", database]);
    expect(result.code).toBe(1);
    expectOneLine(result.stderr, /^corral: .*(private|loopback)/i);
  });

  it("gives up after --timeout seconds", async () => {
    const started = Date.now();
    const result = await lookup(`${origin}/slow`, "--timeout", "1");
    expect(result.code).toBe(1);
    expectOneLine(result.stderr, /^corral: .*\/slow did not answer within \d+ ms$/);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it("says so when there is no actor to sign as", async () => {
    const result = await runCliAsync([
      "lookup",
      `${origin}/note`,
      "--database",
      freshDatabaseUrl(),
    ]);
    expect(result.code).toBe(1);
    expectOneLine(result.stderr, /^corral: there is no actor to sign as: create one first/);
  });
});
