import { describe, expect, it } from "vitest";
import { createLineBuffer } from "./line-buffer.ts";

function setup() {
  const written: string[] = [];
  const turns: (() => void)[] = [];
  let atExit: (() => void) | undefined;
  const buffer = createLineBuffer((text) => written.push(text), {
    schedule: (flush) => turns.push(flush),
    onExit: (flush) => (atExit = flush),
  });
  const endTurn = () => turns.splice(0).forEach((flush) => flush());
  return { buffer, written, endTurn, exit: () => atExit!() };
}

describe("log line buffer", () => {
  it("writes the lines of one turn together, in order, when the turn ends", () => {
    const { buffer, written, endTurn } = setup();
    buffer.write("one\n");
    buffer.write("two\n");
    expect(written).toEqual([]);
    endTurn();
    expect(written).toEqual(["one\ntwo\n"]);
    buffer.write("three\n");
    endTurn();
    expect(written).toEqual(["one\ntwo\n", "three\n"]);
  });

  it("writes what is queued when the process exits", () => {
    const { buffer, written, exit } = setup();
    buffer.write("last words\n");
    exit();
    expect(written).toEqual(["last words\n"]);
  });

  it("writes at once past 64 KiB, and never writes nothing", () => {
    const { buffer, written, endTurn } = setup();
    const big = `${"x".repeat(40 * 1024)}\n`;
    buffer.write(big);
    buffer.write(big);
    expect(written).toEqual([big + big]);
    endTurn();
    expect(written).toHaveLength(1);
  });

  it("by default, writes when the event loop's turn ends", async () => {
    const written: string[] = [];
    const buffer = createLineBuffer((text) => written.push(text), { onExit: () => {} });
    buffer.write("a\n");
    await Promise.resolve();
    expect(written).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(written).toEqual(["a\n"]);
  });
});
