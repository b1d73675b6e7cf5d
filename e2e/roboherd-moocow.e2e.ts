import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureVenv } from "../test-peers/python-venv.ts";
import { ROBOHERD_REQUIREMENTS, startRoboherd, type Herd } from "../test-peers/roboherd.ts";
import { launchChromium } from "./harness/chromium.ts";
import { signIn } from "./harness/console-ui.ts";
import { killOnExit, REPO_ROOT, runCliAsync } from "../test-kit/corral-process.ts";
import { signInApi, type FeApi } from "./harness/fe-api.ts";
import { freePort } from "../test-kit/free-port.ts";

// A bot written for cattle_grid runs on Corral unchanged: roboherd 0.1.14's stock moocow, from
// PyPI, against a fresh `npm start` (scripts/start.mjs: its defaults, the admin account it makes
// on a first start, the console build it checks), over Cattle Drive's MQTT 5 over WebSocket at
// /ws. roboherd creates its actor (create_actor, name "bot:moocow"), reads it back (fetch),
// updates its profile (update_actor), and answers a mention with "moo" (publish_object) from the
// incoming event's parsed embedded object. See docs/cattle-drive.md.

const NODE = join(REPO_ROOT, "node_modules/.bin/node");
const START = join(REPO_ROOT, "scripts/start.mjs");
const PUBLIC = "https://www.w3.org/ns/activitystreams#Public";

let dir: string;
let corral: {
  url: string;
  password: string;
  child: ChildProcess;
  log: () => string;
};
let herd: Herd | undefined;
let alice: FeApi;
let aliceActor: string;
let moocow: string;

beforeAll(async () => {
  // The virtualenv is built once (about a minute) and reused by every later run.
  await ensureVenv(ROBOHERD_REQUIREMENTS);
  dir = mkdtempSync(join(tmpdir(), "corral-moocow-"));
  corral = await npmStart(`sqlite:${join(dir, "corral.sqlite")}`);
  // Someone else to mention the bot: another account's actor on the same server.
  const alicesAccount = await runCliAsync([
    ...["account", "new", "alice", "alice-password", "--admin"],
    ...["--database", `sqlite:${join(dir, "corral.sqlite")}`],
  ]);
  if (alicesAccount.code !== 0)
    throw new Error(
      `corral account new alice exited ${alicesAccount.code}: ${alicesAccount.stderr}`,
    );
  alice = await signInApi(corral.url, "alice", "alice-password");
  aliceActor = (await alice.createActor("alice")).id;

  herd = await startHerd();
  await herd.waitForOutput(/Incoming processing started for 1 cows/, 120_000);
  const operator = await signInApi(corral.url, "operator", corral.password);
  const bot = (await operator.info()).actors.find((actor) => actor.name === "bot:moocow");
  if (!bot) throw new Error(`roboherd created no actor "bot:moocow":\n${herd.output()}`);
  moocow = bot.id;
}, 600_000);

afterAll(async () => {
  await herd?.stop();
  if (corral) await stopStart(corral.child);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("roboherd's moocow on npm start", () => {
  it("replies moo to a mention from another actor, as itself, in reply to the mention", async () => {
    const replies = waitForIncoming(
      alice.token,
      (event) => event.data?.raw?.type === "Create" && event.data.raw.actor === moocow,
    );
    await alice.trigger("publish_object", {
      actor: aliceActor,
      data: {
        type: "Note",
        content: `<p><a href="${moocow}">@moocow</a> hello</p>`,
        to: [moocow],
        tag: [{ type: "Mention", href: moocow, name: `@moocow@${new URL(moocow).host}` }],
      },
    });

    const reply = (await replies).data.raw;
    expect(reply.object).toMatchObject({
      type: "Note",
      content: "moo",
      attributedTo: moocow,
      to: [aliceActor],
      cc: [PUBLIC],
    });
    const mention = await firstOutgoingObject(alice.token);
    expect(reply.object.inReplyTo).toBe(mention);
    // The reply is stored under the bot and dereferences at its id (publish_object).
    const served = await fetch(reply.object.id, {
      headers: { Accept: "application/activity+json" },
    });
    expect(served.status).toBe(200);
    expect(await served.json()).toMatchObject({ id: reply.object.id, content: "moo" });
  });

  it("has set up its own profile through update_actor: a Service with its name and meta information", async () => {
    const document = await waitForProfile(moocow, (doc) => doc.name === "The mooing cow 🐮");
    expect(document).toMatchObject({
      type: "Service",
      preferredUsername: "moocow",
      name: "The mooing cow 🐮",
      manuallyApprovesFollowers: false,
    });
    expect(document.attachment).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ name: "Author", value: "acct:helge@mymath.rocks" }),
        expect.objectContaining({ name: "Source", value: "https://codeberg.org/bovine/roboherd" }),
      ]),
    );
  });

  it("is listed on the console's Info, with where Cattle Drive listens", async () => {
    const browser = await launchChromium();
    try {
      const page = await browser.newPage({ baseURL: corral.url });
      const failed: string[] = [];
      page.on("requestfailed", (request) => failed.push(request.url()));
      page.on("response", (response) => {
        if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
      });
      await signIn(page, { name: "operator", password: corral.password });
      const section = page.getByRole("region", { name: "Cattle Drive" });
      const host = new URL(corral.url).host;
      await section.getByText(`ws://${host}/ws`, { exact: true }).waitFor();
      await section.getByText(`ws://operator:PASSWORD@${host}/ws`, { exact: true }).waitFor();
      const rows = section
        .getByRole("table", { name: "Connected Cattle Drive clients" })
        .getByRole("row");
      // The head row and roboherd's connection.
      await expect.poll(() => rows.count()).toBe(2);
      await expect
        .poll(() => rows.nth(1).getByRole("cell").first().textContent())
        .toBe("WebSocket");
      expect(await rows.nth(1).getByRole("cell").nth(3).textContent()).toBe("127.0.0.1");
      expect(failed).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  it("started again, finds its actor and sees its profile as it left it: no second update", async () => {
    // The first start created the actor and set its profile.
    expect(herd!.output()).toMatch(/Creating cow[\s\S]*Updating profile for moocow/);
    await herd!.stop();
    herd = await startHerd();
    await herd.waitForOutput(/Incoming processing started for 1 cows/, 120_000);
    expect(herd.output()).not.toMatch(/Creating cow/);
    // roboherd compares the document it fetches with what it would set (name, summary, type,
    // icon, Author, Source) and sends update_actor for any difference.
    expect(herd.output()).not.toMatch(/Updating profile/);
  });
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- events are read freely
type Event = Record<string, any>;

function startHerd(): Promise<Herd> {
  return startRoboherd({
    connectionString: `ws://operator:${corral.password}@${new URL(corral.url).host}/ws`,
    // npm start's base URL (the address it serves on): roboherd checks that info lists it.
    baseUrl: corral.url,
    cows: { moocow: { bot: "roboherd.examples.moocow:moocow" } },
  });
}

/** `npm start` (scripts/start.mjs) on 127.0.0.1 and a free port: its defaults otherwise. */
async function npmStart(database: string) {
  const port = await freePort();
  const child = spawn(
    NODE,
    [START, "--host", "127.0.0.1", "--port", String(port), "--database", database],
    { cwd: REPO_ROOT, stdio: ["ignore", "pipe", "pipe"] },
  );
  killOnExit(child);
  let log = "";
  const found = await new Promise<{ url: string; password: string }>((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`npm start did not start:\n${log}`)), 120_000);
    const read = (chunk: Buffer) => {
      log += chunk.toString();
      const password = /account "operator" with password: (\S+)/.exec(log)?.[1];
      const url = /serving on (http:\/\/\S+)/.exec(log)?.[1];
      if (password && url) {
        clearTimeout(timer);
        done({ url, password });
      }
    };
    child.stdout!.on("data", read);
    child.stderr!.on("data", read);
    child.once("exit", (code) => {
      clearTimeout(timer);
      fail(new Error(`npm start exited ${code}:\n${log}`));
    });
  });
  return {
    ...found,
    child,
    log: () => log,
  };
}

/** start.mjs passes SIGTERM to the server it started and exits with it. */
async function stopStart(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((done) => child.once("exit", done));
  child.kill("SIGTERM");
  await exited;
}

/** The first incoming event of the account (its SSE stream, from the start) that `match` accepts. */
async function waitForIncoming(
  token: string,
  match: (event: Event) => boolean,
  timeoutMs = 60_000,
): Promise<Event> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  const seen: Event[] = [];
  try {
    const response = await fetch(`${corral.url}/fe/account/stream/incoming`, {
      // From the first event on: one that came before the stream opened is not missed.
      headers: { Authorization: `Bearer ${token}`, "Last-Event-ID": "0" },
      signal: controller.signal,
    });
    if (!response.ok || !response.body) throw new Error(`stream answered ${response.status}`);
    const decoder = new TextDecoder();
    let buffer = "";
    for await (const chunk of response.body) {
      buffer += decoder.decode(chunk as Uint8Array, { stream: true });
      let end: number;
      while ((end = buffer.indexOf("\n")) >= 0) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 1);
        if (!line.startsWith("data: ")) continue;
        const event = JSON.parse(line.slice("data: ".length)) as Event;
        seen.push(event);
        if (match(event)) return event;
      }
    }
    throw new Error("the stream ended");
  } catch (error) {
    throw new Error(
      `no matching incoming event (${(error as Error).message}); seen ${JSON.stringify(seen)}\n` +
        `roboherd:\n${herd?.output()}\ncorral:\n${corral.log()}`,
      { cause: error },
    );
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
}

/** The id of the object of the account's newest outgoing Create (Corral's event log). */
async function firstOutgoingObject(token: string): Promise<string> {
  const response = await fetch(`${corral.url}/fe/account/events/outgoing?type=Create&limit=1`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  const page = (await response.json()) as { events: { event: Event }[] };
  return page.events[0]!.event.data.raw.object.id;
}

/** The actor's public document once `ready` holds for it (update_actor runs after its 202). */
async function waitForProfile(id: string, ready: (doc: Event) => boolean): Promise<Event> {
  const deadline = Date.now() + 30_000;
  let last: Event | null = null;
  while (Date.now() < deadline) {
    const response = await fetch(`${corral.url}/fe/actor/lookup`, {
      method: "POST",
      headers: { Authorization: `Bearer ${alice.token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ actorId: aliceActor, uri: id }),
    });
    last = ((await response.json()) as { raw: Event | null }).raw;
    if (last && ready(last)) return last;
    await new Promise((done) => setTimeout(done, 200));
  }
  throw new Error(`the profile of ${id} never got ready: ${JSON.stringify(last)}`);
}
