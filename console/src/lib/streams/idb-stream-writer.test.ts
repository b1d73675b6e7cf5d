import { describe, expect, it } from "vitest";
import { IDBFactory } from "fake-indexeddb";
import { openStreamRowsStore, type StoredRow, type StreamRowsStore } from "./idb-stream-rows.ts";
import { createStreamWriter } from "./idb-stream-writer.ts";

function row(seq: number): StoredRow {
  return { stream: "stream-storage-incoming", seq, id: String(seq), data: { seq } };
}

/** Real IndexedDB rows whose first write waits until `release()`, as a slow disk would. */
async function slowFirstWrite() {
  const real = await openStreamRowsStore(new IDBFactory());
  let release = () => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  const writes: Array<{ ids: Array<string | null>; lastEventId: string | null }> = [];
  const rows: StreamRowsStore = {
    ...real,
    write: async (stream, batch, keepFromSeq, lastEventId) => {
      writes.push({ ids: batch.map((r) => r.id), lastEventId });
      if (writes.length === 1) await gate;
      await real.write(stream, batch, keepFromSeq, lastEventId);
    },
  };
  return { real, rows, writes, release };
}

describe("stream writer", () => {
  it("stores each batch with the event id of its own newest row, never a later one", async () => {
    const { real, rows, writes, release } = await slowFirstWrite();
    const writer = createStreamWriter({
      stream: "stream-storage-incoming",
      rows: Promise.resolve(rows),
      flushMs: 10_000,
      getKeepFromSeq: () => 0,
      dropOldestForQuota: () => 0,
    });
    writer.enqueue(row(1));
    const first = writer.flush();
    writer.enqueue(row(2));
    const second = writer.flush();
    writer.enqueue(row(3)); // shown, not yet written when the second batch goes to storage
    release();
    await Promise.all([first, second]);
    expect(writes).toEqual([
      { ids: ["1"], lastEventId: "1" },
      { ids: ["2"], lastEventId: "2" },
    ]);
    expect((await real.load("stream-storage-incoming")).lastEventId).toBe("2");
  });

  it("writes a position at once, and a batch without ids leaves the stored position alone", async () => {
    const real = await openStreamRowsStore(new IDBFactory());
    const writer = createStreamWriter({
      stream: "stream-storage-error",
      rows: Promise.resolve(real),
      flushMs: 10_000,
      getKeepFromSeq: () => 0,
      dropOldestForQuota: () => 0,
    });
    writer.enqueuePosition("9");
    await writer.flush();
    expect((await real.load("stream-storage-error")).lastEventId).toBe("9");
    writer.enqueue({ stream: "stream-storage-error", seq: 0, id: null, data: {} });
    await writer.flush();
    const stored = await real.load("stream-storage-error");
    expect(stored.rows).toHaveLength(1);
    expect(stored.lastEventId).toBe("9");
  });
});
