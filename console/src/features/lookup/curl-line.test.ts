import { describe, expect, it } from "vitest";
import { curlLine } from "./curl-line.ts";

describe("curlLine", () => {
  it("requests a URL as activity+json", () => {
    expect(curlLine(" https://a.example/u/bob ")).toBe(
      "curl -H 'Accept: application/activity+json' 'https://a.example/u/bob'",
    );
  });

  it.each(["@bob@a.example", "acct:bob@a.example", "bob@a.example"])(
    "requests the id a handle (%s) resolved to, not the handle",
    (handle) => {
      expect(curlLine(handle, { resolvedId: "https://a.example/users/bob" })).toBe(
        "curl -H 'Accept: application/activity+json' 'https://a.example/users/bob'",
      );
    },
  );

  it("shows the WebFinger query for a handle not resolved yet", () => {
    expect(curlLine("@bob@a.example")).toBe(
      "curl -H 'Accept: application/jrd+json' " +
        "'https://a.example/.well-known/webfinger?resource=acct%3Abob%40a.example'",
    );
  });

  it("asks the console's own host over the scheme the console is served with", () => {
    expect(curlLine("@nobody@127.0.0.1:3000", { consoleOrigin: "http://127.0.0.1:3000" })).toBe(
      "curl -H 'Accept: application/jrd+json' " +
        "'http://127.0.0.1:3000/.well-known/webfinger?resource=acct%3Anobody%40127.0.0.1%3A3000'",
    );
    expect(curlLine("@bob@a.example", { consoleOrigin: "http://127.0.0.1:3000" })).toContain(
      "'https://a.example/",
    );
  });

  it("keeps the scheme the server used for a handle whose lookup failed", () => {
    const webfinger =
      "http://127.0.0.2:3001/.well-known/webfinger?resource=acct%3Abob%40127.0.0.2%3A3001";
    expect(curlLine("@bob@127.0.0.2:3001", { requestedUrl: webfinger })).toBe(
      `curl -H 'Accept: application/jrd+json' '${webfinger}'`,
    );
    expect(curlLine("@bob@127.0.0.2:3001", { requestedUrl: "http://127.0.0.2:3001/actor/x" })).toBe(
      "curl -H 'Accept: application/activity+json' 'http://127.0.0.2:3001/actor/x'",
    );
  });

  it("quotes a single quote for the shell", () => {
    expect(curlLine("https://a.example/it's")).toContain("'https://a.example/it'\\''s'");
  });
});
