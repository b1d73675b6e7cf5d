import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { delimiter, join } from "node:path";
import { chromium, type Browser, type BrowserServer, type Download } from "playwright-core";

// Debian's Chromium, never a downloaded one: missing, it is installed with apt when we may (root),
// so that `npm ci && npm test` on a fresh machine of this kind needs no other step.
const DEFAULT_CHROMIUM = "/usr/bin/chromium";

const LAUNCH_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

/** What decides where Chromium comes from; `currentFacts()` reads them from this machine. */
export interface ChromiumFacts {
  /** CHROME_PATH, when set. */
  chromePath: string | undefined;
  exists: (path: string) => boolean;
  isRoot: boolean;
  hasAptGet: boolean;
}

export type ChromiumPlan =
  | { action: "use"; path: string }
  | { action: "install"; path: string; commands: string[][] }
  | { action: "fail"; reason: string };

export const INSTALL_COMMANDS = [
  ["apt-get", "update"],
  ["apt-get", "install", "-y", "chromium"],
];

export function planChromium(facts: ChromiumFacts): ChromiumPlan {
  const path = facts.chromePath || DEFAULT_CHROMIUM;
  if (facts.exists(path)) return { action: "use", path };
  // A binary the user named is theirs to provide; we only ever install Debian's own.
  if (!facts.chromePath && facts.isRoot && facts.hasAptGet) {
    return { action: "install", path, commands: INSTALL_COMMANDS };
  }
  const how = facts.chromePath
    ? "fix CHROME_PATH or unset it to use Debian's /usr/bin/chromium"
    : "install it with `apt-get install -y chromium` (as root) or set CHROME_PATH to a Chromium binary";
  return { action: "fail", reason: `Chromium not found at ${path}: ${how}` };
}

export function currentFacts(): ChromiumFacts {
  const dirs = (process.env.PATH ?? "").split(delimiter).filter(Boolean);
  return {
    chromePath: process.env.CHROME_PATH,
    exists: existsSync,
    isRoot: process.getuid?.() === 0,
    hasAptGet: dirs.some((dir) => existsSync(join(dir, "apt-get"))),
  };
}

/** The Chromium binary to drive, or a one-line reason why there is none. Installs nothing. */
export function findChromium(): { ok: true; path: string } | { ok: false; reason: string } {
  const plan = planChromium({ ...currentFacts(), isRoot: false });
  if (plan.action === "use") return { ok: true, path: plan.path };
  return { ok: false, reason: plan.action === "fail" ? plan.reason : "Chromium not found" };
}

/**
 * Makes sure Chromium is there before any browser test, installing Debian's package when it is
 * missing and we run as root. Says so in one line; a failure is one line too.
 */
export function ensureChromium(log: (line: string) => void = console.log): string {
  const plan = planChromium(currentFacts());
  if (plan.action === "use") return plan.path;
  if (plan.action === "fail") throw oneLineError(plan.reason);
  const shown = plan.commands.map((command) => command.join(" ")).join(" && ");
  log(`Chromium is missing at ${plan.path}: installing Debian's chromium (${shown}…`);
  for (const [command, ...args] of plan.commands) {
    const result = spawnSync(command!, args, {
      encoding: "utf8",
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
      stdio: ["ignore", "pipe", "pipe"],
      maxBuffer: 64 * 1024 * 1024,
    });
    if (result.status !== 0) {
      const last = `${result.stderr ?? ""}${result.error?.message ?? ""}`.trim().split("\n").at(-1);
      throw oneLineError(
        `installing Chromium failed: ${[command, ...args].join(" ")} exited with ${result.status}${last ? `: ${last}` : ""}`,
      );
    }
  }
  if (!existsSync(plan.path)) {
    throw oneLineError(`apt-get installed chromium, but ${plan.path} is still missing`);
  }
  return plan.path;
}

/** An error whose report is its message alone: the reader needs the fix, not our stack. */
export function oneLineError(message: string): Error {
  const error = new Error(message);
  error.stack = message;
  return error;
}

declare module "vitest" {
  export interface ProvidedContext {
    /** The run's Chromium (global-setup.ts), for chromium.connect(). */
    chromiumEndpoint?: string;
  }
}

/**
 * The run's one Chromium, started by the global setup and shared by every file (a launch costs
 * about 1.2 CPU-s and 1.5–3 s, once per file before): each file connects to it, and each test
 * has its own context in it, so no test sees another's cookies, storage or pages.
 */
export async function serveChromium(): Promise<BrowserServer> {
  const found = findChromium();
  if (!found.ok) throw oneLineError(found.reason);
  return chromium.launchServer({ executablePath: found.path, headless: true, args: LAUNCH_ARGS });
}

/**
 * A browser for a test file: a connection to the run's Chromium when the global setup started
 * one, else a Chromium of its own. Closing it closes only what it opened.
 */
export async function launchChromium(): Promise<Browser> {
  const { inject } = await import("vitest");
  const endpoint = inject("chromiumEndpoint");
  if (endpoint) return chromium.connect(endpoint);
  const found = findChromium();
  if (!found.ok) throw oneLineError(found.reason);
  return chromium.launch({ executablePath: found.path, headless: true, args: LAUNCH_ARGS });
}

/**
 * What a download holds, as text. Connected to the run's Chromium, `download.path()` is not
 * available (the file is on the browser's side); its stream is.
 */
export async function downloadedText(download: Download): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}
