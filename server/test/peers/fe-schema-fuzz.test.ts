import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureVenv } from "../../../test-peers/python-venv.ts";
import { freshDatabaseUrl } from "../fresh.ts";
import { corral, startCorral, type CorralProcess } from "../../../test-kit/corral-process.ts";

// A schema fuzz of /fe: schemathesis 4.32.5 (PyPI) drives a Corral process with cattle_grid
// 0.5.22's own OpenAPI document as the oracle, for a bounded time. It checks every answer
// (no 5xx, status, content type and body as documented, no hang: each request has a timeout),
// then the server must still be healthy. Where Corral deliberately differs, the oracle is
// adjusted precisely in corralOracle() below; docs/cattle-grid-differences.md lists each one.

const FUZZ_SECONDS = 35;
const REQUEST_TIMEOUT_SECONDS = 3;
const SEED = 20261126; // fixed, like the other fuzz tests; the time budget varies the count

// cattle_grid's own document, served by 0.5.22 at /openapi.json (a byte-exact copy).
const specFile = fileURLToPath(
  new URL("../../../test-peers/cattle-grid-0.5.22-openapi.json", import.meta.url),
);
const requirements = fileURLToPath(
  new URL("../../../test-peers/requirements-schemathesis.txt", import.meta.url),
);

let server: CorralProcess | undefined;
let venv = "";
let token = "";
const folder = mkdtempSync(join(tmpdir(), "corral-schemathesis-"));

beforeAll(async () => {
  const database = freshDatabaseUrl();
  corral(database, "account", "new", "fuzz", "fuzz-password", "--admin");
  // No --allow-private-addresses: nothing a fuzzed body names is reachable from here.
  [server, venv] = await Promise.all([
    startCorral({ database, allowPrivateAddresses: false }),
    ensureVenv(requirements),
  ]);
  const signIn = await fetch(`${server.url}/fe/signin`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ name: "fuzz", password: "fuzz-password" }),
  });
  token = ((await signIn.json()) as { token: string }).token;
}, 300_000);
afterAll(async () => {
  await server?.kill();
  rmSync(folder, { recursive: true, force: true });
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- an OpenAPI document, edited by path
type Json = any;

const detail = {
  description: "FastAPI's error shape with a reason",
  content: { "application/json": { schema: { $ref: "#/components/schemas/Detail" } } },
};

/** cattle_grid's /fe document with Corral's deliberate differences (each one in the docs). */
function corralOracle(cattleGrid: Json, corralUrl: string): Json {
  const oracle = structuredClone(cattleGrid);
  // Only the account API: /ap, /auth and /rabbitmq are cattle_grid's own plumbing.
  oracle.paths = Object.fromEntries(
    Object.entries(oracle.paths).filter(([path]) => path.startsWith("/fe/")),
  );
  oracle.components.schemas.Detail = {
    type: "object",
    required: ["detail"],
    properties: { detail: { type: "string" } },
  };
  const paths = oracle.paths;
  const schemas = oracle.components.schemas;

  // Its document takes any string as history's start_from, and cattle_grid answers 500 for
  // one that is no UUID; Corral answers 422 there (docs/api.md#conventions): the oracle says uuid,
  // or empty (none, as cattle_grid reads it).
  for (const parameter of paths["/fe/account/history"].get.parameters) {
    if (parameter.name === "start_from")
      parameter.schema = {
        anyOf: [
          { type: "string", format: "uuid" },
          { type: "string", maxLength: 0 },
          { type: "null" },
        ],
      };
  }

  // cattle_grid answers 401 to a wrong name or password too; its document leaves it out. 429 is
  // Corral's sign-in throttling (docs/server-guide.md#untrusted-input).
  Object.assign(paths["/fe/signin"].post.responses, { 401: detail, 429: detail });

  // Actors are made only on this server's base URLs (cattle_grid takes any baseUrl, even a
  // foreign one) and handles are what an acct: URI and a URL path can carry.
  const create = schemas.CreateActorRequest.properties;
  create.baseUrl = { type: "string", enum: [corralUrl] };
  create.handle = {
    anyOf: [{ type: "string", pattern: "^[a-zA-Z0-9_][a-zA-Z0-9_.-]{0,63}$" }, { type: "null" }],
  };
  create.name = { anyOf: [{ type: "string", maxLength: 200 }, { type: "null" }] };
  Object.assign(paths["/fe/account/create"].post.responses, { 400: detail, 403: detail });

  // An actor not the account's: 400, as cattle_grid answers too (its document leaves it out).
  // The lookup's timeout is 0 < t ≤ 600 seconds.
  paths["/fe/actor/lookup"].post.responses[400] = detail;
  paths["/fe/actor/trigger/{method}"].post.responses[400] = detail;
  const timeout = paths["/fe/actor/lookup"].post.parameters.find(
    (parameter: Json) => parameter.name === "timeout",
  );
  timeout.schema = { ...timeout.schema, exclusiveMinimum: 0, maximum: 600 };
  return oracle;
}

/** schemathesis.toml: the bounds of the run, and the checks that cannot apply here. */
function config(): string {
  return `seed = ${SEED}
max-time = ${FUZZ_SECONDS}
request-timeout = ${REQUEST_TIMEOUT_SECONDS}
workers = 1

[generation]
database = "none"

# Corral's /fe answers a method a path lacks (TRACE /fe/signin) with 404, not FastAPI's 405.
[checks.unsupported_method]
enabled = false

# Fuzzed bodies never name this account's actor, so Corral refuses each well-formed lookup and
# trigger with 400 before anything goes out: a fuzzed URI fetched or a fuzzed activity delivered
# would leave this machine. What is fuzzed there: validation, ownership, and every answer's shape.
# An open stream is read until its request timeout ends it: a short one leaves time for the rest.
[[operations]]
include-operation-id = "stream"
request-timeout = 1.5

[[operations]]
include-operation-id = "lookup"
checks.positive_data_acceptance.enabled = false

[[operations]]
include-operation-id = "trigger"
checks.positive_data_acceptance.enabled = false
`;
}

function runSchemathesis(args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(join(venv, "bin", "st"), args, {
      cwd: folder,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, NO_COLOR: "1" },
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    // Its own time budget ends the run; this is only the backstop for a run that does not end.
    const backstop = setTimeout(
      () => process.kill(child.pid!, "SIGKILL"),
      (FUZZ_SECONDS + 40) * 1000,
    );
    child.once("exit", (code) => {
      clearTimeout(backstop);
      resolve({ code, output });
    });
  });
}

describe("schema fuzz of /fe with cattle_grid's OpenAPI document as the oracle", () => {
  it("answers every generated request as documented, never 5xx, never hangs, and stays healthy", async () => {
    const cattleGrid = JSON.parse(readFileSync(specFile, "utf8"));
    writeFileSync(
      join(folder, "oracle.json"),
      JSON.stringify(corralOracle(cattleGrid, server!.url)),
    );
    writeFileSync(join(folder, "schemathesis.toml"), config());
    const report = join(folder, "report.json");

    const started = Date.now();
    const run = await runSchemathesis([
      "--config-file",
      join(folder, "schemathesis.toml"),
      "run",
      join(folder, "oracle.json"),
      "--url",
      server!.url,
      "--header",
      `Authorization: Bearer ${token}`,
      "--report",
      "json",
      "--report-json-path",
      report,
    ]);
    const elapsed = Date.now() - started;

    expect(existsSync(report), run.output).toBe(true);
    const result = JSON.parse(readFileSync(report, "utf8"));
    expect({ failures: result.failures, errors: result.errors }, run.output).toEqual({
      failures: [],
      errors: [],
    });
    expect(run.code, run.output).toBe(0);
    expect(result.test_cases.generated).toBeGreaterThan(100);
    expect(elapsed).toBeLessThan((FUZZ_SECONDS + 40) * 1000); // its start-up included

    // Still healthy: alive, its database answering, the token still good.
    expect(server!.child.exitCode).toBeNull();
    expect((await fetch(`${server!.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${server!.url}/readyz`)).status).toBe(200);
    const info = await fetch(`${server!.url}/fe/account/info`, {
      headers: { Authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(5_000),
    });
    expect(info.status).toBe(200);
    expect(server!.stderr()).not.toMatch(/\n\s+at /); // no stack trace logged
  }, 120_000);
});
