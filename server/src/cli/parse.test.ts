import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../../../test-kit/corral-process.ts";
import { expectOneLine } from "../../test/expect-one-line.ts";
import { freshDatabaseUrl } from "../../test/fresh.ts";

/** A command line the grammar refuses: exit code 2 and one line on stderr. */
function refused(args: string[], pattern: RegExp) {
  const result = runCli(args);
  expect(result.code, result.stderr).toBe(2);
  expect(result.stdout).toBe("");
  expectOneLine(result.stderr, pattern);
}

describe("corral command line mistakes", () => {
  it("names an unknown command or option and the help to read", () => {
    refused(["frob"], /^corral: unknown command "frob"; see corral --help$/);
    refused(["serve", "-x"], /^corral: unknown option '-x'; see corral serve --help$/);
    refused(
      ["account", "list", "--port", "1"],
      /unknown option '--port'; see corral account --help$/,
    );
    refused(
      ["lookup", "https://a.example/", "--bogus"],
      /unknown option '--bogus'; see corral lookup --help$/,
    );
  });

  it("refuses missing values and stray arguments", () => {
    refused(
      ["serve", "--port"],
      /^corral: option '--port <value>' argument missing; see corral serve --help$/,
    );
    refused(["serve", "extra"], /^corral: unexpected argument 'extra'; see corral serve --help$/);
    refused(
      ["account", "new", "al", "password", "--admin=yes"],
      /'--admin' does not take an argument/,
    );
  });

  it("checks account actions and their arguments", () => {
    refused(
      ["account"],
      /^corral: account needs one of: new, list, delete, password, revoke-tokens; see corral account --help$/,
    );
    refused(
      ["account", "rename", "a"],
      /^corral: unknown account action "rename"; see corral account --help$/,
    );
    refused(
      ["account", "delete"],
      /^corral: usage: corral account delete NAME; see corral account --help$/,
    );
    refused(
      ["account", "list", "--admin"],
      /^corral: --admin and --permission belong to "account new"; see/,
    );
  });

  it("checks lookup's URI and timeout", () => {
    refused(["lookup"], /^corral: lookup needs exactly one URI; see corral lookup --help$/);
    refused(["lookup", "a", "b"], /^corral: lookup needs exactly one URI/);
    for (const timeout of ["0", "soon", "601"])
      refused(
        ["lookup", "https://a.example/", "--timeout", timeout],
        /^corral: --timeout: must be a number of seconds above 0, at most 600; see/,
      );
  });

  it("refuses a sqlite file in a missing folder and creates nothing", () => {
    const parent = mkdtempSync(join(tmpdir(), "corral-cli-"));
    const url = `sqlite:${join(parent, "missing", "x.sqlite")}`;
    const folder = `the folder ${join(parent, "missing")} does not exist \\(only the default ./data is created\\)`;
    refused(
      ["serve", "--database", url],
      new RegExp(`^corral: invalid configuration: --database: ${folder}`),
    );
    refused(["account", "list", "--database", url], new RegExp(folder));
    refused(["lookup", "https://a.example/", "--database", url], new RegExp(folder));
    const viaEnv = runCli(["account", "list"], { env: { CORRAL_DATABASE: url } });
    expect(viaEnv.code).toBe(2);
    expect(existsSync(join(parent, "missing"))).toBe(false);
  });

  it("creates the default ./data folder when it is missing", () => {
    const cwd = mkdtempSync(join(tmpdir(), "corral-cli-"));
    // An empty variable counts as unset.
    const result = runCli(["account", "list"], { cwd, env: { CORRAL_DATABASE: "" } });
    expect(result.stderr).toBe("");
    expect(result.stdout).toBe("no accounts\n");
    expect(existsSync(join(cwd, "data", "corral.sqlite"))).toBe(true);
  });

  it("refuses passwords shorter than 8 characters, saying why, before opening the database", () => {
    const database = freshDatabaseUrl();
    const db = ["--database", database];
    const tooShort = runCli(["account", "new", "al", "1234567", ...db]);
    expect(tooShort.code).toBe(1);
    expectOneLine(
      tooShort.stderr,
      /^corral: the password is too short: 7 characters, at least 8 needed$/,
    );
    expect(existsSync(database.slice("sqlite:".length))).toBe(false);
    expect(runCli(["account", "new", "al", "12345678", ...db]).code).toBe(0);
    const change = runCli(["account", "password", "al", "x", ...db]);
    expect(change.code).toBe(1);
    expectOneLine(
      change.stderr,
      /^corral: the password is too short: 1 character, at least 8 needed$/,
    );
    expect(runCli(["account", "password", "al", "abcdefgh", ...db]).code).toBe(0);
  });
});
