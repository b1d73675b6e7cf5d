import { describe, expect, it } from "vitest";
import { IDBFactory } from "fake-indexeddb";
import { openStreamRowsStore } from "./idb-stream-rows.ts";

const row = (stream: string, seq: number) => ({ stream, seq, id: String(seq), data: { seq } });

describe("loadNewest", () => {
  it("reads only the newest rows of the stream, oldest first, and nothing of other streams", async () => {
    const rows = await openStreamRowsStore(new IDBFactory());
    const mine = Array.from({ length: 50 }, (_, i) => row("a", i + 10));
    await rows.write("a", mine, 0, null);
    await rows.write("b", [row("b", 100), row("b", 101)], 0, null);
    expect((await rows.loadNewest("a", 3)).map((r) => r.seq)).toEqual([57, 58, 59]);
    expect((await rows.loadNewest("a", 500)).map((r) => r.seq)).toEqual(mine.map((r) => r.seq));
    expect(await rows.loadNewest("c", 3)).toEqual([]);
  });
});
