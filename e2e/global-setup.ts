import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { ensureChromium, oneLineError, serveChromium } from "./harness/chromium.ts";
import { REPO_ROOT } from "../test-kit/corral-process.ts";
import { prebuildVenvs } from "../test-peers/python-venv.ts";
import { namesFiles } from "../test-peers/run-order.ts";

// Runs once before any browser test. A missing Chromium is installed when we run as root (see
// harness/chromium.ts); otherwise it, or an unbuilt console, fails the whole run with one line
// saying what to do, rather than every test timing out (or, worse, skipping). A whole run starts
// building the Python peers' missing virtualenvs in the background, as the server project's
// global setup does (after `npm run test:unit` there is none left to build). One Chromium serves
// every file (harness/chromium.ts), stopped when the run ends.
export default async function setUp(project: TestProject): Promise<() => Promise<void>> {
  ensureChromium();
  if (!existsSync(join(REPO_ROOT, "console/dist/index.html"))) {
    throw oneLineError(
      "console/dist is missing: run `npm run build -w console` (npm run test:e2e does it first)",
    );
  }
  // Screenshots and logs of failures describe the latest run only.
  rmSync(join(REPO_ROOT, "e2e/artifacts"), { recursive: true, force: true });
  const stopBuilds = namesFiles(project) ? async () => {} : prebuildVenvs();
  const browser = await serveChromium();
  project.provide("chromiumEndpoint", browser.wsEndpoint());
  return async () => {
    await browser.close();
    await stopBuilds();
  };
}
