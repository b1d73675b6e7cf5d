import { existsSync } from "node:fs";
import { chromium, type Browser } from "playwright-core";

// Debian's Chromium, never a downloaded one: CI installs it with apt (see .ci/run).
const DEFAULT_CHROMIUM = "/usr/bin/chromium";

const LAUNCH_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

/** The Chromium binary to drive, or a one-line reason why there is none. */
export function findChromium(): { ok: true; path: string } | { ok: false; reason: string } {
  const path = process.env.CHROME_PATH || DEFAULT_CHROMIUM;
  if (existsSync(path)) return { ok: true, path };
  return {
    ok: false,
    reason: `Chromium not found at ${path}: install it with \`apt-get install -y chromium\` or set CHROME_PATH to a Chromium binary`,
  };
}

/** An error whose report is its message alone: the reader needs the fix, not our stack. */
export function oneLineError(message: string): Error {
  const error = new Error(message);
  error.stack = message;
  return error;
}

export async function launchChromium(): Promise<Browser> {
  const found = findChromium();
  if (!found.ok) throw oneLineError(found.reason);
  return chromium.launch({ executablePath: found.path, headless: true, args: LAUNCH_ARGS });
}
