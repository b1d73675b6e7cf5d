import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { gzipSync } from "node:zlib";
import { expect, test } from "./harness/fixtures.ts";
import { drawerEntry, signIn } from "./harness/console-ui.ts";
import { signInApi } from "./harness/fe-api.ts";
import { REPO_ROOT } from "../test-kit/corral-process.ts";

// bench/README.md ("The console's first load"): the first load stays under 200 KB gzip; screens not
// needed for the first paint (Info, Sign In) arrive in their own chunks, and waiting for one shows.

const DIST = join(REPO_ROOT, "console/dist");

/** The entry script and every chunk it imports statically: what runs before the first paint. */
function firstLoadChunks(): string[] {
  const html = readFileSync(join(DIST, "index.html"), "utf8");
  const entry = /<script type="module"[^>]* src="\/([^"]+)"/.exec(html)![1]!;
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const code = readFileSync(join(DIST, file), "utf8");
    // Static imports only (`import … from "./x.js"`, `import "./x.js"`), not import("./x.js").
    for (const match of code.matchAll(
      /\bimport\s*(?:[\w$*{}\s,]*?\bfrom\s*)?["']\.\/([^"']+\.js)["']/g,
    ))
      visit(join(dirname(file), match[1]!));
  };
  visit(entry);
  return [...seen];
}

test("the first load is under 200 KB gzip and holds no screen but Info and Sign In", () => {
  const chunks = firstLoadChunks();
  const gzipBytes = chunks.reduce(
    (total, file) => total + gzipSync(readFileSync(join(DIST, file))).length,
    0,
  );
  expect(gzipBytes).toBeLessThan(200_000);
  const names = chunks.map((file) => file.replace(/^assets\//, "").replace(/-[\w-]{8}\.js$/, ""));
  for (const lazy of [
    "lookup-page",
    "perform-page",
    "deliveries-page",
    "stream-page",
    "activity-chart",
    "shortcuts-table-dialog",
    "Tooltip",
  ])
    expect(names).not.toContain(lazy);
  // Perform's JSON Schema validator (docs/adr/0011-json-schema-in-the-browser.md) comes with
  // Perform: none of its code, known by one of its messages, is in the first load.
  for (const file of chunks)
    expect(readFileSync(join(DIST, file), "utf8")).not.toContain("False boolean schema");
});

test("a screen whose chunk is still on its way shows that the page is loading", async ({
  page,
  account,
  corral,
}) => {
  const api = await signInApi(corral.url, account.name, account.password);
  await api.createActor("patient");
  let release = () => {};
  const held = new Promise<void>((done) => (release = done));
  await page.route(/\/assets\/lookup-page-[\w-]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  await signIn(page, account);
  await drawerEntry(page, "Lookup").click();
  await page.getByRole("progressbar", { name: "Loading the page" }).waitFor();
  release();
  await page.getByRole("textbox", { name: "URI" }).waitFor();
  expect(await page.getByRole("progressbar", { name: "Loading the page" }).count()).toBe(0);
});
