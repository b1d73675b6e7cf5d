import { describe, expect, it } from "vitest";
import { runCli } from "../../../test-kit/corral-process.ts";
import { expectOneLine } from "../../test/expect-one-line.ts";
import { backendVersion } from "../version.ts";

// Each option of docs/operations.md#running-the-server with its environment variable and default,
// as the help must say.
const serveOptions = [
  ["--port N", "default: 3000; env: PORT"],
  ["--host H", "default: localhost; env: HOST"],
  ["--base-url URL ...", "default: http://localhost:PORT; env: CORRAL_BASE_URLS (comma-separated)"],
  ["--database URL", "default: sqlite:./data/corral.sqlite; env: CORRAL_DATABASE"],
  ["--allow-private-addresses", "default: off; env: CORRAL_ALLOW_PRIVATE_ADDRESSES=1"],
  ["--trust-proxy", "default: off; env: CORRAL_TRUST_PROXY=1"],
  ["--role ROLE", "default: all; env: CORRAL_ROLE"],
  ["--db-pool N", "default: 10; env: CORRAL_DB_POOL"],
  ["--claim-lease S", "default: 30; env: CORRAL_CLAIM_LEASE"],
  ["--upstream URL", "default: none; env: CORRAL_UPSTREAM"],
  ["--amqp URL", "default: none; env: CORRAL_AMQP"],
  ["--upstream-amqp URL", "default: none; env: CORRAL_UPSTREAM_AMQP"],
];

/** The help line of `flag` and the line under it (default and variable). */
function optionLines(help: string, flag: string) {
  const lines = help.split("\n");
  const at = lines.findIndex((line) => line.startsWith(`  ${flag}  `));
  expect(at, `${flag} in:\n${help}`).toBeGreaterThan(-1);
  return { meaning: lines[at]!.slice(flag.length + 2).trim(), details: lines[at + 1]!.trim() };
}

function escape(text: string) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function expectHelp(args: string[]) {
  const result = runCli(args);
  expect(result.code, result.stderr).toBe(0);
  expect(result.stderr).toBe("");
  return result.stdout;
}

describe("corral help", () => {
  it("lists every command and the global options for --help, -h, help and no arguments", () => {
    const help = expectHelp(["--help"]);
    for (const line of [
      /^ {2}serve +serve the console/m,
      /^ {2}account +create, list, delete accounts/m,
      /^ {2}lookup +fetch an object or handle signed as a local actor/m,
      /^ {2}help +show a command's options/m,
      /^ {2}-h, --help +show help/m,
      /^ {2}-V, --version +print the version/m,
    ])
      expect(help).toMatch(line);
    // Every option of serve, one line each, with the meaning `corral help serve` gives it.
    const serveHelp = expectHelp(["help", "serve"]);
    const serveFlags = [
      ...serveHelp.matchAll(/^ {2}(--[a-z-]+(?: [A-Z]+)?(?: \.\.\.)?) {2,}(\S.*)$/gm),
    ];
    expect(serveFlags.map((match) => match[1])).toEqual([
      ...serveOptions.map(([flag]) => flag),
      "--metrics",
      "--log-format F",
      "--log-level L",
    ]);
    const serveSection = help.slice(help.indexOf("Options of serve"));
    for (const [, flag, meaning] of serveFlags)
      expect(serveSection).toMatch(
        new RegExp(`^ {2}${escape(flag!)} {2,}${escape(meaning!)}$`, "m"),
      );
    expect(expectHelp(["-h"])).toBe(help);
    expect(expectHelp(["help"])).toBe(help);
    expect(expectHelp([])).toBe(help);
  });

  it("shows every serve option with meaning, default and variable, however it is asked", () => {
    const help = expectHelp(["serve", "--help"]);
    expect(help).toMatch(/^corral serve: serve the console/);
    for (const [flag, details] of serveOptions) {
      const lines = optionLines(help, flag!);
      expect(lines.meaning).not.toBe("");
      expect(lines.details).toBe(details);
    }
    expect(expectHelp(["help", "serve"])).toBe(help);
    expect(expectHelp(["serve", "-h"])).toBe(help);
    // --help wins over the other flags, even a wrong one.
    expect(expectHelp(["serve", "--port", "nope", "--bogus", "--help"])).toBe(help);
  });

  it("shows every account action and option, also from `help account` and after an action", () => {
    const help = expectHelp(["account", "--help"]);
    for (const action of [
      "new NAME PASSWORD",
      "list",
      "delete NAME",
      "password NAME NEWPASSWORD",
      "revoke-tokens NAME",
    ])
      expect(help).toMatch(new RegExp(`^ {2}${action} {2,}\\S`, "m"));
    expect(optionLines(help, "--admin").details).toBe("default: off");
    expect(optionLines(help, "--permission P ...").details).toBe("default: none");
    expect(optionLines(help, "--database URL").details).toBe(serveOptions[3]![1]);
    expect(help).toMatch(/8 characters or more/);
    expect(expectHelp(["help", "account"])).toBe(help);
    expect(expectHelp(["account", "new", "--help"])).toBe(help);
  });

  it("shows the lookup options with their defaults", () => {
    const help = expectHelp(["lookup", "--help"]);
    expect(help).toMatch(/^ {2}corral lookup URI \[options\]$/m);
    expect(optionLines(help, "--as ACTOR").details).toBe("default: the oldest actor");
    expect(optionLines(help, "--timeout S").details).toBe("default: 10");
    expect(optionLines(help, "--parsed").details).toBe("default: off");
    expect(optionLines(help, "--database URL").details).toBe(serveOptions[3]![1]);
    expect(optionLines(help, "--allow-private-addresses").details).toBe(serveOptions[4]![1]);
    expect(expectHelp(["help", "lookup"])).toBe(help);
  });

  it("prints the version for --version and -V", () => {
    expect(expectHelp(["--version"])).toBe(`corral ${backendVersion}\n`);
    expect(expectHelp(["-V"])).toBe(`corral ${backendVersion}\n`);
  });

  it("answers help for an unknown command with one line and exit code 2", () => {
    const result = runCli(["help", "frob"]);
    expect(result.code).toBe(2);
    expectOneLine(result.stderr, /^corral: unknown command "frob"; see corral --help$/);
  });
});
