// The shell examples in README.md, CONTRIBUTING.md and docs/ run as written (issue 33, item 11:
// `npm run corral -- lookup … | jq .` failed, npm's banner on stdout). The rules, as
// CONTRIBUTING.md states them for whoever writes an example:
// - every ```sh block runs, unless the line before it is `<!-- not run: the reason -->`;
// - a block runs in bash (errexit, pipefail) from the repository's root, against a server this
//   test starts on a random port with a fresh database: `localhost:3000` in the block names that
//   server, CORRAL_DATABASE its database, which holds the account `operator` (its password in
//   $PASSWORD) and its actor `alice`;
// - a command that pipes `npm run` uses `npm run --silent`, in every Markdown file.

import { spawn, spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshDatabaseUrl } from "../fresh.ts";
import { addAccount, addActor, signIn, startTestServer, type TestServer } from "../server.ts";

const root = fileURLToPath(new URL("../../../", import.meta.url));

/** README.md, CONTRIBUTING.md and every .md under docs/, as paths from the root. */
function documentedFiles(): string[] {
  const docs = readdirSync(path.join(root, "docs"), { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".md") && !path.basename(name).startsWith("."))
    .map((name) => path.join("docs", name));
  return ["README.md", "CONTRIBUTING.md", ...docs.sort()];
}

/** Every Markdown file of the repository (not dependencies, caches or builds). */
function markdownFiles(): string[] {
  const skip = new Set(["node_modules", ".cache", ".git", "dist", "data"]);
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
      if (skip.has(entry.name)) continue;
      const name = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(name);
      else if (entry.name.endsWith(".md")) found.push(name);
    }
  };
  walk(".");
  return found.sort();
}

interface ShellExample {
  file: string;
  line: number;
  script: string;
  /** Why it is not run, from `<!-- not run: … -->`, or null. */
  notRun: string | null;
}

/** The ```sh blocks of a Markdown text, each with the reason it is not run, if one is given. */
function shellExamples(file: string, text: string): ShellExample[] {
  const lines = text.split("\n");
  const examples: ShellExample[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^\s*```(sh|bash|shell)\s*$/.test(lines[i]!)) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !/^\s*```\s*$/.test(lines[i]!); i++) body.push(lines[i]!);
    let before = start - 1;
    while (before >= 0 && lines[before]!.trim() === "") before--;
    const marker = /^\s*<!-- not run: (.+?) -->\s*$/.exec(lines[before] ?? "");
    examples.push({ file, line: start + 1, script: body.join("\n"), notRun: marker?.[1] ?? null });
  }
  return examples;
}

/** Lines (in code, inline or fenced) that pipe `npm run` without `--silent`. */
function loudPipes(text: string): string[] {
  const fenced = [...text.matchAll(/```[a-z]*\n([\s\S]*?)```/g)].flatMap((m) => m[1]!.split("\n"));
  const inline = [...text.replace(/```[a-z]*\n[\s\S]*?```/g, "").matchAll(/`([^`\n]+)`/g)];
  const code = [...fenced, ...inline.map((m) => m[1]!)];
  // A pipe, not `||` and not a table's escaped `\|`.
  const pipe = /(?<![|\\])\|(?!\|)/;
  return code.filter((line) => /npm run (?!--silent)/.test(line) && pipe.test(line));
}

function read(file: string): string {
  return readFileSync(path.join(root, file), "utf8");
}

describe("the documentation's shell examples", () => {
  const password = "operator-example-password";
  let server: TestServer;
  let database: string;

  beforeAll(async () => {
    database = freshDatabaseUrl();
    server = await startTestServer({ database });
    await addAccount(server, "operator", password);
    await addActor(server, await signIn(server, "operator", password), "alice");
  });
  afterAll(() => server?.close());

  it("pipe npm run only with --silent (npm prints a banner on stdout otherwise)", () => {
    const loud = markdownFiles().flatMap((file) =>
      loudPipes(read(file)).map((line) => `${file}: ${line}`),
    );
    expect(loud).toEqual([]);
  });

  it("has jq, which the examples pipe into", () => {
    const found = spawnSync("jq", ["--version"], { encoding: "utf8" });
    if (found.error) throw new Error("the docs' shell examples need jq: apt-get install -y jq");
  });

  const examples = documentedFiles().flatMap((file) => shellExamples(file, read(file)));
  const runnable = examples.filter((example) => example.notRun === null);

  it("are found, and each one not run says why", () => {
    expect(runnable.length).toBeGreaterThan(0);
    for (const example of examples.filter((e) => e.notRun !== null))
      expect(example.notRun!.trim().length, `${example.file}:${example.line}`).toBeGreaterThan(3);
  });

  it.each(runnable.map((example) => [`${example.file}:${example.line}`, example] as const))(
    "%s runs against a real server and exits 0",
    async (_where, example) => {
      const host = new URL(server.url).host;
      const script = example.script.replaceAll("localhost:3000", host);
      const result = await runBash(script, {
        CORRAL_DATABASE: database,
        PASSWORD: password,
        PATH: `${path.join(root, "node_modules", ".bin")}${path.delimiter}${process.env.PATH}`,
      });
      expect(
        result.code,
        `${script}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`,
      ).toBe(0);
    },
  );
});

function runBash(
  script: string,
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn("bash", ["-euo", "pipefail", "-c", script], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}
