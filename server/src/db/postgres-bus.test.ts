import { configure, reset, type LogRecord } from "@logtape/logtape";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BusMessage } from "./bus.ts";
import { createPostgresBus, type PostgresBus } from "./postgres-bus.ts";
import { createTestDatabase, type TestDatabase } from "../../test/db/postgres-test-database.ts";

// Each bus has connections of its own, as each server process would: two buses on one
// database stand for two processes.

const databases: TestDatabase[] = [];
const buses: PostgresBus[] = [];
let shared: TestDatabase;
beforeAll(async () => {
  shared = await createTestDatabase();
  databases.push(shared);
});
afterAll(async () => {
  await Promise.all(buses.map((bus) => bus.close()));
  await Promise.all(databases.map((d) => d.drop()));
});

async function openBus(url = shared.url): Promise<PostgresBus> {
  const bus = await createPostgresBus(url);
  buses.push(bus);
  return bus;
}

/** Collects what a bus delivers; `next(n)` resolves once n messages arrived (or fails after 5 s). */
function record(bus: PostgresBus) {
  const got: BusMessage[] = [];
  const waiters: (() => void)[] = [];
  const unsubscribe = bus.subscribe((message) => {
    got.push(message);
    waiters.splice(0).forEach((wake) => wake());
  });
  const next = async (n: number) => {
    const deadline = Date.now() + 5000;
    while (got.length < n) {
      if (Date.now() > deadline) throw new Error(`got ${got.length} of ${n} messages`);
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
    return got;
  };
  return { got, next, unsubscribe };
}

describe("PostgreSQL event bus", () => {
  it("delivers every event to subscribers of both processes, in the order published", async () => {
    const [first, second] = [await openBus(), await openBus()];
    const onFirst = record(first);
    const onSecond = record(second);
    const sent: BusMessage[] = [
      { accountId: 1, stream: "incoming", seq: 1 },
      { accountId: 1, stream: "incoming", seq: 2 },
      { accountId: 2, stream: "error", seq: 7 },
    ];
    await first.publish(sent[0]!);
    await first.publish(sent[1]!);
    await second.publish(sent[2]!);
    expect(await onSecond.next(3)).toEqual(sent);
    expect(await onFirst.next(3)).toEqual(sent);
  });

  it("stops delivering to a subscriber that unsubscribed", async () => {
    const [publisher, listener] = [await openBus(), await openBus()];
    const kept = record(listener);
    const dropped = record(listener);
    dropped.unsubscribe();
    await publisher.publish({ accountId: 3, stream: "outgoing", seq: 1 });
    await kept.next(1);
    expect(dropped.got).toEqual([]);
  });

  it("keeps the events of separate databases apart", async () => {
    const elsewhere = await createTestDatabase();
    databases.push(elsewhere);
    const [here, there] = [await openBus(), await openBus(elsewhere.url)];
    const onHere = record(here);
    const onThere = record(there);
    await there.publish({ accountId: 9, stream: "incoming", seq: 1 });
    await here.publish({ accountId: 4, stream: "incoming", seq: 1 });
    expect(await onHere.next(1)).toEqual([{ accountId: 4, stream: "incoming", seq: 1 }]);
    expect(await onThere.next(1)).toEqual([{ accountId: 9, stream: "incoming", seq: 1 }]);
  });

  it("goes on delivering to the others when one subscriber throws", async () => {
    const bus = await openBus();
    bus.subscribe(() => {
      throw new Error("broken subscriber");
    });
    const healthy = record(bus);
    // The failure is one line through the logger (never console.error with a stack).
    const errors: LogRecord[] = [];
    await configure({
      reset: true,
      sinks: { memory: (record) => void errors.push(record) },
      loggers: [
        { category: ["corral"], sinks: ["memory"], lowestLevel: "error" },
        { category: ["logtape", "meta"], sinks: [], lowestLevel: "error" },
      ],
    });
    try {
      await bus.publish({ accountId: 5, stream: "error", seq: 1 });
      expect(await healthy.next(1)).toEqual([{ accountId: 5, stream: "error", seq: 1 }]);
    } finally {
      await reset();
    }
    expect(errors.map((r) => r.category.join("."))).toEqual(["corral.bus"]);
  });

  it("fails with one readable line when PostgreSQL is unreachable", async () => {
    await expect(createPostgresBus("postgres://postgres@127.0.0.1:1/x")).rejects.toThrow(
      new Error("cannot reach PostgreSQL at 127.0.0.1:1: connection refused"),
    );
  });
});
