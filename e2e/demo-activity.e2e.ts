import { spawn, type ChildProcess } from "node:child_process";
import { join } from "node:path";
import { REPO_ROOT } from "../test-kit/corral-process.ts";
import { test } from "./harness/fixtures.ts";
import { freePort } from "../test-kit/free-port.ts";

// Issue 17's "done when": the Info chart shows the demo's traffic within a minute of
// `npm run demo` starting. The demo script itself runs here, on free ports (like every demo run,
// it starts ./data/demo-*.sqlite afresh).

const NODE = join(REPO_ROOT, "node_modules/.bin/node");

async function startDemo(): Promise<{ url: string; password: string; child: ChildProcess }> {
  const env = {
    ...process.env,
    DEMO_PORT_A: String(await freePort("127.0.0.1")),
    DEMO_PORT_B: String(await freePort("127.0.0.2")),
  };
  const child = spawn(NODE, [join(REPO_ROOT, "scripts/demo.mjs")], { cwd: REPO_ROOT, env });
  let output = "";
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`the demo did not start: ${output}`)), 30_000);
    child.once("exit", (code) => fail(new Error(`the demo exited with ${code}: ${output}`)));
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const a = /A: (http:\/\/\S+)\s+sign in as: demo \/ (\S+)/.exec(output);
      if (!a) return;
      clearTimeout(timer);
      done({ url: a[1]!, password: a[2]!, child });
    });
  });
}

test("the Info chart shows the demo's traffic within a minute of npm run demo starting", async ({
  browser,
}) => {
  const started = Date.now();
  const demo = await startDemo();
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    const page = await context.newPage();
    await page.goto(`${demo.url}/signin`);
    await page.getByRole("textbox", { name: "Name" }).fill("demo");
    await page.getByLabel("Password").fill(demo.password);
    await page
      .getByRole("form", { name: "Sign In" })
      .getByRole("button", { name: "Sign In" })
      .click();
    const figure = page.getByRole("figure", { name: "Activity, last hour" });
    const left = 60_000 - (Date.now() - started);
    await figure
      .getByText(/In the last hour: [1-9]\d* incoming, [1-9]\d* outgoing/)
      .waitFor({ timeout: left });
    await figure.locator("canvas").first().waitFor();
  } finally {
    await context.close();
    const exited = new Promise((done) => demo.child.once("exit", done));
    demo.child.kill("SIGINT");
    await exited;
  }
}, 90_000);
