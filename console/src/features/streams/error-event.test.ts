import { describe, expect, it } from "vitest";
import { describeError, withParsedBody } from "./error-event.ts";

describe("describeError", () => {
  it("names the target's host and the network's words for a name that does not resolve", () => {
    const event = {
      message: [
        "no delivery to https://no-such-host.invalid/users/x: refused before sending",
        "https://no-such-host.invalid/users/x could not be reached: ENOTFOUND (the name does not resolve)",
      ],
      routing_key: "send_message",
      target: "https://no-such-host.invalid/users/x",
      inbox: null,
    };
    expect(describeError(event)).toBe("no-such-host.invalid: the name does not resolve");
  });

  it("says what an inbox answered, by the inbox's host", () => {
    const event = {
      message: [
        "delivery to https://peer.example:8443/inbox failed (attempt 2)",
        "https://peer.example:8443/inbox answered 500 Internal Server Error",
        "next attempt at 2026-11-28T02:00:00.000Z",
      ],
      inbox: "https://peer.example:8443/inbox",
    };
    expect(describeError(event)).toBe("peer.example:8443: answered 500 Internal Server Error");
  });

  it("gives the first line when no host is named, and nothing for an event without lines", () => {
    expect(describeError({ message: ['unknown method "x"', "known methods: a, b"] })).toBe(
      'unknown method "x"',
    );
    expect(describeError({ routing_key: "x" })).toBeNull();
  });
});

describe("withParsedBody", () => {
  it("shows original_message_body as JSON where it parses, and as it came where it does not", () => {
    expect(withParsedBody({ original_message_body: '{"actor":"a"}', x: 1 })).toEqual({
      original_message_body: { actor: "a" },
      x: 1,
    });
    const unparsed = { original_message_body: "not json" };
    expect(withParsedBody(unparsed)).toBe(unparsed);
  });
});
