import { afterEach, describe, expect, it, vi } from "vitest";
import { IDBFactory } from "fake-indexeddb";
import { openStreamRowsStore, type StreamRowsStore } from "./idb-stream-rows.ts";
import { matchesQuery } from "./stream-search.ts";
import { createStreamStore, isStreamType, streamStorageKey } from "./stream-store.ts";

afterEach(() => vi.restoreAllMocks());

// vi.waitFor's bound: the test's own timeout (vite.config.ts) ends it first.
const UNTIL_TEST_TIMEOUT = { timeout: 60_000, interval: 10 };

function freshRows(): { factory: IDBFactory; rows: Promise<StreamRowsStore> } {
  const factory = new IDBFactory();
  return { factory, rows: openStreamRowsStore(factory) };
}

function activity(type: string, n = 0) {
  return { data: { parsed: { activity: { type, n } } } };
}

describe("stream store", () => {
  it("knows the three stream types and their storage keys", () => {
    expect(["incoming", "outgoing", "error"].every(isStreamType)).toBe(true);
    expect(isStreamType("other")).toBe(false);
    expect(streamStorageKey("incoming")).toBe("stream-storage-incoming");
  });

  it("adds messages in arrival order and empties on reset", async () => {
    const store = createStreamStore({ type: "incoming", rows: freshRows().rows });
    store.getState().add({ a: 1 }, "1");
    store.getState().add({ a: 2 }, "2");
    await store.whenIdle();
    expect(store.getState().messages.map((m) => m.data)).toEqual([{ a: 1 }, { a: 2 }]);
    store.getState().reset();
    expect(store.getState().messages).toEqual([]);
  });

  it("applies a burst of adds as one update", async () => {
    const store = createStreamStore({ type: "incoming", rows: freshRows().rows });
    await store.whenIdle();
    const listener = vi.fn();
    store.subscribe(listener);
    for (let i = 0; i < 50; i++) store.getState().add({ i }, String(i));
    await store.whenIdle();
    expect(listener).toHaveBeenCalledTimes(1);
    expect(store.getState().messages).toHaveLength(50);
  });

  it("writes a burst to storage in one batch after about 250 ms, not once per message", async () => {
    const real = await freshRows().rows;
    const writes: number[] = [];
    const counting: StreamRowsStore = {
      ...real,
      write: (stream, batch, keepFromSeq, lastEventId) => {
        writes.push(batch.length);
        return real.write(stream, batch, keepFromSeq, lastEventId);
      },
    };
    const store = createStreamStore({ type: "incoming", rows: Promise.resolve(counting) });
    for (let i = 0; i < 100; i++) store.getState().add({ i }, String(i));
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(store.getState().messages).toHaveLength(100);
    expect(writes).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(writes).toEqual([100]);
  });

  it("keeps messages and the last event id across a reload, under the spec's key", async () => {
    const { factory, rows } = freshRows();
    const first = createStreamStore({ type: "outgoing", rows });
    first.getState().add(activity("Follow"), "ev-1");
    first.getState().add(activity("Like"), "ev-2");
    await first.whenIdle();

    const reloaded = createStreamStore({ type: "outgoing", rows: openStreamRowsStore(factory) });
    await reloaded.whenIdle();
    expect(reloaded.getState().messages.map((m) => m.id)).toEqual(["ev-1", "ev-2"]);
    expect(reloaded.getState().lastEventId).toBe("ev-2");
    expect(reloaded.getState().activityTypes).toEqual(["Follow", "Like"]);
    const stored = await (await openStreamRowsStore(factory)).load("stream-storage-outgoing");
    expect(stored.rows).toHaveLength(2);
    const other = createStreamStore({ type: "incoming", rows: openStreamRowsStore(factory) });
    await other.whenIdle();
    expect(other.getState().messages).toEqual([]);
  });

  it("resumes from the server's position when a reload comes before the shown messages were stored", async () => {
    const { factory, rows } = freshRows();
    // A write delay no loaded machine reaches: the reload below comes inside it whatever the load.
    const first = createStreamStore({ type: "error", rows, flushMs: 3_600_000 });
    first.getState().markPosition("5");
    await first.whenIdle();
    first.getState().add({ n: 6 }, "6");
    first.getState().add({ n: 7 }, "7");
    // Shown once applied (on an animation frame, which a busy machine delays), not after a time.
    await vi.waitFor(() => expect(first.getState().messages).toHaveLength(2), UNTIL_TEST_TIMEOUT);
    expect(first.getState().lastEventId).toBe("7");

    // Reloaded inside the write delay: storage must not claim 6 and 7, so they are asked for again.
    const reloaded = createStreamStore({ type: "error", rows: openStreamRowsStore(factory) });
    await reloaded.whenIdle();
    expect(reloaded.getState().messages).toEqual([]);
    expect(reloaded.getState().lastEventId).toBe("5");
  });

  it("ignores a message whose event id it already holds, also after a reload", async () => {
    const { factory, rows } = freshRows();
    const first = createStreamStore({ type: "incoming", rows });
    first.getState().add({ n: 1 }, "a");
    first.getState().add({ n: 1 }, "a");
    await first.whenIdle();
    expect(first.getState().messages).toHaveLength(1);
    const reloaded = createStreamStore({ type: "incoming", rows: openStreamRowsStore(factory) });
    reloaded.getState().add({ n: 1 }, "a");
    reloaded.getState().add({ n: 2 }, "b");
    await reloaded.whenIdle();
    expect(reloaded.getState().messages.map((m) => m.id)).toEqual(["a", "b"]);
  });

  it("holds at most the cap, dropping the oldest in memory and in storage", async () => {
    const { factory, rows } = freshRows();
    const store = createStreamStore({ type: "incoming", rows, cap: 5 });
    for (let i = 0; i < 12; i++) store.getState().add({ i }, `e${i}`);
    await store.whenIdle();
    expect(store.getState().messages.map((m) => m.id)).toEqual(["e7", "e8", "e9", "e10", "e11"]);
    const stored = await (await openStreamRowsStore(factory)).load("stream-storage-incoming");
    expect(stored.rows.map((r) => r.id)).toEqual(["e7", "e8", "e9", "e10", "e11"]);
  });

  it("lists the distinct activity types, sorted, and forgets a type once its messages are gone", async () => {
    const store = createStreamStore({ type: "incoming", rows: freshRows().rows, cap: 3 });
    store.getState().add(activity("Undo"));
    store.getState().add(activity("Create"));
    store.getState().add(activity("Create"));
    store.getState().add({ no: "type" });
    await store.whenIdle();
    expect(store.getState().activityTypes).toEqual(["Create"]);
    store.getState().add(activity("Announce"));
    await store.whenIdle();
    expect(store.getState().activityTypes).toEqual(["Announce", "Create"]);
    store.getState().reset();
    expect(store.getState().activityTypes).toEqual([]);
  });

  it("files an event under its raw activity's type when parsed is {} or absent (cattle_grid)", async () => {
    const store = createStreamStore({ type: "incoming", rows: freshRows().rows });
    store.getState().add({ data: { raw: { type: "Follow" }, parsed: {} } });
    store.getState().add({ data: { raw: { type: ["Like", "Extra"] } } });
    await store.whenIdle();
    expect(store.getState().activityTypes).toEqual(["Follow", "Like"]);
    const found = store
      .getState()
      .messages.filter((message) => matchesQuery(message, { text: "", activityType: "Follow" }));
    expect(found.map((message) => message.activityType)).toEqual(["Follow"]);
  });

  it("clears stored rows on reset but still resumes after the last event id", async () => {
    const { factory, rows } = freshRows();
    const store = createStreamStore({ type: "error", rows });
    store.getState().add({ x: 1 }, "z1");
    await store.whenIdle();
    store.getState().reset();
    await store.whenIdle();
    const reloaded = createStreamStore({ type: "error", rows: openStreamRowsStore(factory) });
    await reloaded.whenIdle();
    expect(reloaded.getState().messages).toEqual([]);
    expect(reloaded.getState().lastEventId).toBe("z1");
  });

  it("drops the oldest and says so when storage is full, instead of failing", async () => {
    const { factory, rows } = freshRows();
    const real = await rows;
    // fake-indexeddb has no quota; this one refuses to hold more than 6 rows, as a full disk would.
    let held = 0;
    const quotaLimited: StreamRowsStore = {
      ...real,
      write: async (stream, batch, keepFromSeq, lastEventId) => {
        const kept = (await real.load(stream)).rows.filter((r) => r.seq >= keepFromSeq).length;
        if (kept + batch.length > 6)
          throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
        held = kept + batch.length;
        await real.write(stream, batch, keepFromSeq, lastEventId);
      },
    };
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const store = createStreamStore({ type: "incoming", rows: Promise.resolve(quotaLimited) });
    for (let i = 0; i < 8; i++) store.getState().add({ i }, `q${i}`);
    await store.whenIdle();
    const { messages, storageNote } = store.getState();
    expect(messages.length).toBeLessThanOrEqual(6);
    expect(messages.at(-1)?.id).toBe("q7");
    expect(held).toBe(messages.length);
    expect(storageNote).toMatch(/storage is full: the \d+ oldest messages were dropped/i);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining("storage is full"));
    const stored = await (await openStreamRowsStore(factory)).load("stream-storage-incoming");
    expect(stored.rows.map((r) => r.id)).toEqual(messages.map((m) => m.id));
  });

  it("fills a stream again after a reload that came before the fill was stored, but not after a reset", async () => {
    localStorage.clear();
    const { factory, rows } = freshRows();
    const store = createStreamStore({ type: "outgoing", rows });
    await store.whenIdle();
    expect(store.getState().neverConnected).toBe(true);
    // The stream opened (its position is stored at once); the reload comes before any fill.
    store.getState().markPosition("40");
    await store.whenIdle();
    const reloaded = createStreamStore({ type: "outgoing", rows: openStreamRowsStore(factory) });
    await reloaded.whenIdle();
    expect(reloaded.getState().lastEventId).toBe("40");
    expect(reloaded.getState().neverConnected).toBe(true);
    // A reset stays a reset.
    reloaded.getState().reset();
    await reloaded.whenIdle();
    const again = createStreamStore({ type: "outgoing", rows: openStreamRowsStore(factory) });
    await again.whenIdle();
    expect(again.getState().neverConnected).toBe(false);
    localStorage.clear();
  });

  it("works in memory and says so when IndexedDB is unavailable", async () => {
    const store = createStreamStore({ type: "incoming", rows: Promise.resolve(null) });
    store.getState().add({ a: 1 }, "1");
    await store.whenIdle();
    expect(store.getState().messages).toHaveLength(1);
    expect(store.getState().storageNote).toMatch(/unavailable/);
  });

  it("puts the server's older events before the held ones, each once, stored without moving the position", async () => {
    const { factory, rows } = freshRows();
    const store = createStreamStore({ type: "error", rows });
    await store.whenIdle();
    expect(store.getState().neverConnected).toBe(true);
    store.getState().add(activity("Like", 11), "11");
    store.getState().add(activity("Like", 12), "12");
    const older = [12, 11, 10, 9].map((n) => ({
      id: String(n),
      data: activity("Follow", n),
      receivedAt: 1_000 + n,
    }));
    // 12 and 11 are held already; 10 and 9 go before them, oldest first.
    expect(await store.getState().addOlder(older)).toBe(2);
    expect(store.getState().messages.map((m) => m.id)).toEqual(["9", "10", "11", "12"]);
    expect(store.getState().messages[0]!.receivedAt).toBe(1_009);
    expect(store.getState().activityTypes).toEqual(["Follow", "Like"]);
    expect(await store.getState().addOlder(older)).toBe(0);
    await store.whenIdle();

    const reloaded = createStreamStore({ type: "error", rows: openStreamRowsStore(factory) });
    await reloaded.whenIdle();
    expect(reloaded.getState().messages.map((m) => m.id)).toEqual(["9", "10", "11", "12"]);
    // A reload resumes after the newest live message, not after an older one from the history.
    expect(reloaded.getState().lastEventId).toBe("12");
    expect(reloaded.getState().neverConnected).toBe(false);
  });

  it("adds no older events beyond the cap", async () => {
    const store = createStreamStore({ type: "error", rows: freshRows().rows, cap: 3 });
    store.getState().add({ n: 5 }, "5");
    store.getState().add({ n: 6 }, "6");
    const older = [4, 3, 2].map((n) => ({ id: String(n), data: { n }, receivedAt: n }));
    expect(await store.getState().addOlder(older)).toBe(1);
    expect(store.getState().messages.map((m) => m.id)).toEqual(["4", "5", "6"]);
  });
});
