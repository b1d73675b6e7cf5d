import { describe, expect, it } from "vitest";
import type { StreamMessage } from "./stream-message.ts";
import { createQueryAnswers, matchesQuery, searchTextOf } from "./stream-search.ts";

let seq = 0;
function message(data: unknown, activityType: string | null = null): StreamMessage {
  return { stream: "incoming", seq: seq++, id: null, data, activityType, receivedAt: 0 };
}

const note = message(
  { data: { parsed: { activity: { type: "Create", object: { content: "Hello Fediverse" } } } } },
  "Create",
);
const like = message(
  { data: { parsed: { activity: { type: "Like", actor: "https://b.example/u/Bob" } } } },
  "Like",
);

describe("matchesQuery", () => {
  it("finds text anywhere in the message JSON, ignoring case", () => {
    expect(matchesQuery(note, { text: "fediVERSE", activityType: "" })).toBe(true);
    expect(matchesQuery(like, { text: "fediverse", activityType: "" })).toBe(false);
    expect(matchesQuery(like, { text: "b.example/u/bob", activityType: "" })).toBe(true);
  });

  it("matches keys and JSON punctuation too, since it searches the JSON text", () => {
    expect(matchesQuery(note, { text: '"content":"hello', activityType: "" })).toBe(true);
  });

  it("ignores surrounding spaces and treats an empty text as matching everything", () => {
    expect(matchesQuery(note, { text: "  hello  ", activityType: "" })).toBe(true);
    expect(matchesQuery(like, { text: "   ", activityType: "" })).toBe(true);
  });

  it("combines the text with the type filter", () => {
    expect(matchesQuery(note, { text: "hello", activityType: "Create" })).toBe(true);
    expect(matchesQuery(note, { text: "hello", activityType: "Like" })).toBe(false);
    expect(matchesQuery(like, { text: "", activityType: "Like" })).toBe(true);
  });

  it("keeps a message nested too deeply for JSON.stringify searchable by type", () => {
    let deep: unknown = {};
    for (let i = 0; i < 200_000; i++) deep = { d: deep };
    const deepMessage = message(deep, "Create");
    expect(searchTextOf(deepMessage)).toBe("");
    expect(matchesQuery(deepMessage, { text: "", activityType: "Create" })).toBe(true);
  });
});

describe("createQueryAnswers", () => {
  const many = Array.from({ length: 2_000 }, (_, i) => message({ n: `item-${i}` }));

  it("answers at once within its budget, and asks for slices beyond it", () => {
    const answers = createQueryAnswers({ text: "item-1999", activityType: "" });
    expect(answers.filter(many.slice(0, 10), 500)).toEqual([]);
    expect(answers.filter(many, 500)).toBeNull();
  });

  it("fills in slices, after which the same query answers from memory, new arrivals included", async () => {
    const answers = createQueryAnswers({ text: "ITEM-19", activityType: "" });
    await answers.fill(many, new AbortController().signal, 1);
    const arrived = message({ n: "item-19 again" });
    const shown = answers.filter([...many, arrived], 1);
    const expected = [...many, arrived].filter((m) =>
      (m.data as { n: string }).n.startsWith("item-19"),
    );
    expect(expected).toHaveLength(112); // 19, 190…199, 1900…1999, and the new one
    expect(shown).toEqual(expected);
  });

  it("stops filling when aborted", async () => {
    const answers = createQueryAnswers({ text: "x", activityType: "" });
    const controller = new AbortController();
    controller.abort();
    await answers.fill(many, controller.signal);
    expect(answers.filter(many, 0)).toBeNull();
  });
});

describe("narrowing", () => {
  const many = Array.from({ length: 1_000 }, (_, i) => message({ n: `entry-${i}` }));

  it("answers a longer text from the shorter one's misses, with the same results as afresh", async () => {
    const first = createQueryAnswers({ text: "entry-9", activityType: "" });
    await first.fill(many, new AbortController().signal);
    const longer = createQueryAnswers({ text: "entry-99", activityType: "" }, first);
    // 889 of 1,000 did not contain "entry-9": only the 111 that did are left to answer.
    expect(longer.filter(many, 111)).toEqual(
      createQueryAnswers({ text: "entry-99", activityType: "" }).filter(many, 1_000),
    );
  });

  it("does not narrow when the text is not an extension or the type differs", async () => {
    const first = createQueryAnswers({ text: "entry-9", activityType: "" });
    await first.fill(many, new AbortController().signal);
    expect(
      createQueryAnswers({ text: "entry-1", activityType: "" }, first).filter(many, 111),
    ).toBeNull();
    expect(
      createQueryAnswers({ text: "entry-99", activityType: "Note" }, first).filter(many, 111),
    ).toBeNull();
  });
});

describe("resuming as the text grows", () => {
  it("finds the longer text after the shorter one's first place, and matches as a fresh search", () => {
    const messages = [message({ s: "ab-abc" }), message({ s: "abx" }), message({ s: "zzz" })];
    const short = createQueryAnswers({ text: "ab", activityType: "" });
    expect(short.filter(messages)).toEqual(messages.slice(0, 2));
    const longer = createQueryAnswers({ text: "abc", activityType: "" }, short);
    expect(longer.filter(messages, 0)).toEqual([messages[0]]);
    expect(longer.position(messages[0]!)).toBe(searchTextOf(messages[0]!).indexOf("abc"));
    expect(longer.position(messages[2]!)).toBe(-1);
  });
});
