import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { launchCorral, runCli as run } from "../../test-kit/corral-process.ts";
import { expectOneLine } from "../test/expect-one-line.ts";
import { freshDatabaseUrl } from "../test/fresh.ts";
import { ensureRecordedAccount } from "./accounts/index.ts";
import { openDatabase } from "./db/open.ts";

describe("corral command line", () => {
  it("refuses an unknown flag with one line on stderr and exit code 2", () => {
    const result = run(["serve", "--bogus"]);
    expect(result.code).toBe(2);
    expectOneLine(result.stderr, /^corral: unknown option '--bogus'; see corral serve --help$/);
  });

  it("lists every invalid value in one line", () => {
    const result = run([
      "serve",
      "--port",
      "http",
      "--base-url",
      "ftp://x",
      "--database",
      "mysql://db",
    ]);
    expect(result.code).toBe(2);
    expectOneLine(
      result.stderr,
      /--port: .*; --base-url: .*ftp:\/\/x.*; --database: must be sqlite:PATH or postgres/,
    );
  });

  it("refuses --role web with a SQLite database in one line naming both, exit code 2", () => {
    const result = run(["serve", "--role", "web", "--database", freshDatabaseUrl()]);
    expect(result.code).toBe(2);
    expectOneLine(result.stderr, /--role web: a sqlite: database is served by one process/);
  });

  it("reports a port in use in one line and exits non-zero", async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const result = run([
        "serve",
        "--host",
        "127.0.0.1",
        "--port",
        String(port),
        "--database",
        freshDatabaseUrl(),
      ]);
      expect(result.code).toBe(1);
      expectOneLine(
        result.stderr,
        new RegExp(`^corral: port ${port} on 127.0.0.1 is already in use$`),
      );
    } finally {
      blocker.close();
    }
  });

  it("reports an unusable database in one line", () => {
    const result = run(["account", "list", "--database", "sqlite:/etc/passwd/corral.sqlite"]);
    expect(result.code).toBe(1);
    expectOneLine(
      result.stderr,
      /^corral: cannot open database sqlite:\/etc\/passwd\/corral.sqlite: /,
    );
  });

  it("never prints a database password", () => {
    const result = run([
      "account",
      "list",
      "--database",
      "postgres://postgres:s3cret@127.0.0.1:1/x",
    ]);
    expect(result.code).toBe(1);
    expectOneLine(
      result.stderr,
      /^corral: cannot open database postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:1\/x: /,
    );
    expect(result.stderr).not.toContain("s3cret");
  });

  it("manages accounts: new, list, password, revoke-tokens, delete", () => {
    const database = freshDatabaseUrl();
    const db = ["--database", database];
    expect(run(["account", "new", "alice", "password-1", "--admin", ...db]).stdout).toBe(
      "created account alice (admin)\n",
    );
    expect(
      run([
        "account",
        "new",
        "bob",
        "password-2",
        "--permission",
        "example.com",
        "--permission",
        "b.example",
        ...db,
      ]).code,
    ).toBe(0);
    const taken = run(["account", "new", "alice", "password-x", ...db]);
    expect(taken.code).toBe(1);
    expectOneLine(taken.stderr, /already exists/);
    const invalid = run(["account", "new", "no spaces", "password-x", ...db]);
    expectOneLine(invalid.stderr, /invalid account name/);
    expect(run(["account", "list", ...db]).stdout).toBe(
      "alice (admin)\nbob (permissions: example.com, b.example)\n",
    );
    expect(run(["account", "password", "alice", "password-3", ...db]).stdout).toMatch(
      /changed the password of alice/,
    );
    expect(run(["account", "revoke-tokens", "bob", ...db]).stdout).toBe(
      "revoked 0 tokens of bob\n",
    );
    expect(run(["account", "delete", "bob", ...db]).stdout).toBe("deleted account bob\n");
    const missing = run(["account", "delete", "bob", ...db]);
    expect(missing.code).toBe(1);
    expectOneLine(missing.stderr, /no account named "bob"/);
    expect(run(["account", "list", ...db]).stdout).toBe("alice (admin)\n");
  }, 90_000); // ten processes, each a cold Node start

  it("lists an account that only holds cattle_grid's recorded events as such", async () => {
    const database = freshDatabaseUrl();
    const { db } = await openDatabase(database);
    try {
      await ensureRecordedAccount(db, "herd");
    } finally {
      await db.close();
    }
    expect(run(["account", "new", "alice", "password-1", "--database", database]).code).toBe(0);
    expect(run(["account", "list", "--database", database]).stdout).toBe(
      "alice\nherd (events recorded from the upstream cattle_grid; signs in there)\n",
    );
  }, 30_000);

  it("takes the database from CORRAL_DATABASE, and the flag wins over it", () => {
    const fromEnv = freshDatabaseUrl();
    const fromFlag = freshDatabaseUrl();
    run(["account", "new", "envuser", "password"], { env: { CORRAL_DATABASE: fromEnv } });
    run(["account", "new", "flaguser", "password", "--database", fromFlag], {
      env: { CORRAL_DATABASE: fromEnv },
    });
    expect(run(["account", "list"], { env: { CORRAL_DATABASE: fromEnv } }).stdout).toBe(
      "envuser\n",
    );
    expect(
      run(["account", "list", "--database", fromFlag], { env: { CORRAL_DATABASE: fromEnv } })
        .stdout,
    ).toBe("flaguser\n");
  });

  it("serves, prints the URL, creates operator once with a password that signs in, and hides the SQLite warning", async () => {
    const database = freshDatabaseUrl();
    const first = await launchCorral([
      "serve",
      "--host",
      "127.0.0.1",
      "--port",
      "0",
      "--database",
      database,
    ]);
    try {
      const password = /password: (\S+)/.exec(first.stdout())?.[1];
      expect(password).toBeTruthy();
      expect(first.stderr()).not.toMatch(/ExperimentalWarning/);
      const signin = await fetch(`${first.url}/fe/signin`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ name: "operator", password }),
      });
      expect(signin.status).toBe(200);
    } finally {
      await first.stop();
    }
    const second = await launchCorral([
      "serve",
      "--host",
      "127.0.0.1",
      "--port",
      "0",
      "--database",
      database,
    ]);
    await second.stop();
    expect(second.stdout()).not.toMatch(/password/);
  }, 60_000);
});
