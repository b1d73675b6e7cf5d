import { execFile } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import amqp from "amqplib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkPrerequisites, thisMachine } from "../../../test-peers/prerequisites.ts";
import { createTestDatabase, type TestDatabase } from "../../test/db/postgres-test-database.ts";
import { findAccountByName } from "../accounts/index.ts";
import { createMemoryBus } from "../db/bus.ts";
import { openDatabase, type OpenDatabase } from "../db/open.ts";
import { readHistory } from "../events/history.ts";
import { createEventLog, streamNames } from "../events/index.ts";
import { startRecorder, type Recorder } from "./recorder.ts";

// The recorder on RabbitMQ (a vhost of its own here) and both databases: what cattle_grid 0.5.22
// publishes on amq.topic goes into the event log, each event once, with the log's retention.

const execFileAsync = promisify(execFile);
let rabbitmqctl: string;
let refusingUrl: string;
const vhosts: string[] = [];
const postgresDatabases: TestDatabase[] = [];

/** A vhost of its own: the recorder's queue name is fixed. */
async function freshVhost(): Promise<string> {
  const vhost = `corral_recorder_${randomBytes(5).toString("hex")}`;
  await rabbit("add_vhost", vhost);
  vhosts.push(vhost);
  await rabbit("set_permissions", "-p", vhost, "guest", ".*", ".*", ".*");
  return `amqp://guest:guest@127.0.0.1:5672/${vhost}`;
}

beforeAll(async () => {
  ({ rabbitmqctl } = await checkPrerequisites(thisMachine()));
  refusingUrl = await freshVhost();
}, 120_000);

afterAll(async () => {
  for (const vhost of vhosts) await rabbit("delete_vhost", vhost).catch(() => {});
  await Promise.all(postgresDatabases.map((database) => database.drop()));
}, 120_000);

async function rabbit(...args: string[]) {
  await execFileAsync(rabbitmqctl, ["--quiet", ...args], { timeout: 60_000 });
}

const dialects = {
  sqlite: async () => `sqlite:${join(mkdtempSync(join(tmpdir(), "corral-recorder-")), "r.db")}`,
  postgres: async () => {
    const database = await createTestDatabase();
    postgresDatabases.push(database);
    return database.url;
  },
};

function combined(account: string, type: string, historyId: string, n: number) {
  return {
    key: `combined.${account}`,
    body: {
      data: { raw: { id: `http://cg.test/a/${n}`, type: "Create", actor: "http://cg.test/x" } },
      actor: `http://cg.test/actor/${account}`,
      event_type: type,
      history_id: historyId,
    },
  };
}

describe.each(Object.keys(dialects) as (keyof typeof dialects)[])("recorder on %s", (dialect) => {
  let opened: OpenDatabase;
  let recorder: Recorder;

  let url: string;

  beforeAll(async () => {
    opened = await openDatabase(await dialects[dialect]());
    const events = createEventLog(opened.db, createMemoryBus(), { cap: 5 });
    // A vhost per database: the queue's name is fixed, and what one block leaves in it must not
    // reach the other's recorder.
    url = await freshVhost();
    recorder = startRecorder({ url, db: opened.db, events });
    await recorder.whenConnected();
  }, 60_000);

  afterAll(async () => {
    await recorder?.close();
    await opened?.db.close();
  });

  it("stores each account's events in its streams once, keeps the retention, drops what is no event", async () => {
    const connection = await amqp.connect(url);
    const channel = await connection.createConfirmChannel();
    const publish = (key: string, body: unknown, messageId?: string) =>
      channel.publish("amq.topic", key, Buffer.from(JSON.stringify(body)), { messageId });
    const twice = combined(`ann_${dialect}`, "incoming", randomUUID(), 1);
    publish(twice.key, twice.body);
    publish(twice.key, twice.body);
    const out = combined(`ann_${dialect}`, "outgoing", randomUUID(), 2);
    publish(out.key, out.body);
    const error = { message: ["refused"], original_message_body: "{}", routing_key: "x" };
    const errorId = randomUUID();
    publish(`error.ann_${dialect}`, error, errorId);
    publish(`error.ann_${dialect}`, error, errorId);
    channel.publish("amq.topic", `combined.ann_${dialect}`, Buffer.from("not json"));
    // Another account's, and more than the retention (5) of one stream.
    for (let n = 0; n < 12; n++) {
      const event = combined(`ben_${dialect}`, "incoming", randomUUID(), 100 + n);
      publish(event.key, event.body);
    }
    await channel.waitForConfirms();
    await connection.close();

    await expect.poll(() => recorder.status().recorded, { timeout: 30_000 }).toBe(15);
    await expect.poll(() => recorder.status().dropped, { timeout: 30_000 }).toBe(1);
    const account = async (name: string) => {
      const found = await findAccountByName(opened.db, name);
      expect(found, `the account ${name}, made by the recorder`).toBeDefined();
      return found!;
    };
    const ann = await account(`ann_${dialect}`);
    const ben = await account(`ben_${dialect}`);
    const page = (id: number) => readHistory(opened.db, id, streamNames, { limit: 500 }, {});
    const annEvents = (await page(ann.id)).events;
    expect(annEvents.map((e) => e.stream).sort()).toEqual(["error", "incoming", "outgoing"]);
    expect(JSON.parse(annEvents.find((e) => e.stream === "incoming")!.data)).toEqual(twice.body);
    expect(JSON.parse(annEvents.find((e) => e.stream === "error")!.data)).toEqual(error);
    // The newest 5 at least; pruning runs every 5 appends of a stream.
    const benEvents = (await page(ben.id)).events;
    expect(benEvents.length).toBeGreaterThanOrEqual(5);
    expect(benEvents.length).toBeLessThan(12);
    expect(JSON.parse(benEvents[0]!.data).data.raw.id).toBe("http://cg.test/a/111");
    // Longer than its waits (30 s each), so that a slow run fails with what it waited for.
  }, 90_000);
});

describe("a message whose event the database refuses", () => {
  it("is not acknowledged: it waits in the queue and is stored once the database takes it", async () => {
    const opened = await openDatabase(await dialects.sqlite());
    // A real refusal of the database: a trigger that aborts the insert of one account's events.
    await opened.db.run(
      `CREATE TRIGGER refuse_cy BEFORE INSERT ON events WHEN NEW.data LIKE '%refused-account%'
       BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`,
    );
    const events = createEventLog(opened.db, createMemoryBus(), { cap: 100 });
    const recorder = startRecorder({ url: refusingUrl, db: opened.db, events, retryMs: 100 });
    try {
      await recorder.whenConnected();
      const connection = await amqp.connect(refusingUrl);
      const channel = await connection.createConfirmChannel();
      const event = combined("cy", "incoming", randomUUID(), 1);
      const body = { ...event.body, actor: "http://cg.test/actor/refused-account" };
      channel.publish("amq.topic", event.key, Buffer.from(JSON.stringify(body)));
      const other = combined("dee", "incoming", randomUUID(), 2);
      channel.publish("amq.topic", other.key, Buffer.from(JSON.stringify(other.body)));
      await channel.waitForConfirms();
      await connection.close();
      // The other account's event is stored; this one is tried again and again, never dropped.
      await expect.poll(() => recorder.status().recorded, { timeout: 30_000 }).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(recorder.status().recorded).toBe(1);
      await opened.db.run(`DROP TRIGGER refuse_cy`);
      await expect.poll(() => recorder.status().recorded, { timeout: 30_000 }).toBe(2);
      const cy = (await findAccountByName(opened.db, "cy"))!;
      const stored = await readHistory(opened.db, cy.id, streamNames, { limit: 500 }, {});
      expect(stored.events.map((e) => JSON.parse(e.data))).toEqual([body]);
    } finally {
      await recorder.close();
      await opened.db.close();
    }
  });
});
