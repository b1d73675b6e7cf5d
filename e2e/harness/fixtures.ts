import { mkdirSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { expect, test as base } from "vitest";
import { launchChromium } from "./chromium.ts";
import { REPO_ROOT } from "../../test-kit/corral-process.ts";
import { startCorral, type Corral } from "./corral-server.ts";

export { expect };

const ARTIFACTS = join(REPO_ROOT, "e2e/artifacts");
const pageLogs = new WeakMap<Page, string[]>();
let accountCounter = 0;

/** What a person at the console is: a name and password, and a browser tab. */
export type Account = { name: string; password: string };

/**
 * One server and one connection to the run's Chromium per file (starting either costs seconds on
 * two cores; harness/chromium.ts); a fresh browser context and a fresh account per test so that
 * no test sees another's state.
 */
export const test = base
  // Vitest reads a fixture's dependencies from its destructuring pattern: none here.
  // eslint-disable-next-line no-empty-pattern
  .extend("browser", { scope: "file" }, async ({}, { onCleanup }): Promise<Browser> => {
    const browser = await launchChromium();
    onCleanup(() => browser.close());
    return browser;
  })
  // eslint-disable-next-line no-empty-pattern
  .extend("corral", { scope: "file" }, async ({}, { onCleanup }): Promise<Corral> => {
    const corral = await startCorral();
    onCleanup(() => corral.dispose());
    return corral;
  })
  .extend(
    "accounts",
    { scope: "file" },
    async ({ corral }, { onCleanup }): Promise<AccountSupply> => {
      const supply = createAccountSupply(corral);
      onCleanup(() => supply.drain());
      return supply;
    },
  )
  .extend("account", async ({ accounts }): Promise<Account> => accounts.take())
  .extend("page", async ({ browser, corral, task }, { onCleanup }): Promise<Page> => {
    const context = await browser.newContext({
      baseURL: corral.url,
      viewport: { width: 1280, height: 900 },
    });
    context.setDefaultTimeout(10_000);
    const page = await context.newPage();
    const log: string[] = [];
    pageLogs.set(page, log);
    page.on("console", (message) => log.push(`[${message.type()}] ${message.text()}`));
    page.on("pageerror", (error) => log.push(`[pageerror] ${error.message}`));
    onCleanup(async () => {
      // Fixture cleanup runs after the test body has settled, so the result is known here.
      if (task.result?.state === "fail") await saveArtifacts(task, page, log, corral);
      await context.close();
    });
    return page;
  });

type AccountSupply = { take(): Promise<Account>; drain(): Promise<void> };

/**
 * Fresh --admin accounts made with the real CLI. Each `corral account new` costs a Node start and
 * a scrypt hash, so the next account is made while the current test runs.
 */
function createAccountSupply(corral: Corral): AccountSupply {
  const make = async (): Promise<Account> => {
    // Names follow cattle_grid's ^[a-zA-Z0-9_]{1,16}$.
    const name = `op${process.pid % 10_000}_${++accountCounter}`;
    const password = `pw-${name}-secret`;
    await corral.account("new", name, password, "--admin");
    return { name, password };
  };
  let next: Promise<Account> | null = null;
  return {
    take() {
      const taken = next ?? make();
      next = make();
      next.catch(() => {}); // reported when taken
      return taken;
    },
    async drain() {
      await next?.catch(() => {});
    },
  };
}

/** Every console message and page error of this page so far, as "[type] text" lines. */
export function pageLog(page: Page): string[] {
  return pageLogs.get(page) ?? [];
}

async function saveArtifacts(
  task: { name: string; file?: { name: string } },
  page: Page,
  log: string[],
  corral: Corral,
) {
  mkdirSync(ARTIFACTS, { recursive: true });
  const file = basename(task.file?.name ?? "e2e").replace(/\.e2e\.ts$/, "");
  const stem = join(ARTIFACTS, `${file}--${task.name.replace(/[^a-zA-Z0-9]+/g, "-").slice(0, 80)}`);
  await page.screenshot({ path: `${stem}.png`, fullPage: true }).catch(() => {});
  const text = [
    `url: ${page.url()}`,
    "",
    "page console:",
    ...log,
    "",
    "server output:",
    corral.output(),
  ];
  writeFileSync(`${stem}.log`, text.join("\n"));
}
