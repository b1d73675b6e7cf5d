import { describe, expect, it } from "vitest";
import { buildLookupPath, isLookupUrl } from "./lookup-url.ts";

describe("isLookupUrl", () => {
  it("accepts a value that is one absolute http(s) URL, query and fragment included", () => {
    expect(isLookupUrl("https://remote.example/users/alice")).toBe(true);
    expect(isLookupUrl("http://127.0.0.1:8080/a?x=1&y=2#frag")).toBe(true);
    expect(isLookupUrl("HTTPS://remote.example")).toBe(true);
  });

  it("refuses text that merely starts with a URL, such as an error line", () => {
    expect(isLookupUrl("http://remote.example/x answered 404 Not Found")).toBe(false);
    expect(isLookupUrl("https://remote.example/inbox\tConnection refused")).toBe(false);
    expect(isLookupUrl("https://remote.example/a\n")).toBe(false);
    expect(isLookupUrl(" https://remote.example/a")).toBe(false);
    expect(isLookupUrl('https://remote.example/a"b')).toBe(false);
    expect(isLookupUrl("https://remote.example/<b>")).toBe(false);
  });

  it("refuses other schemes, relative paths and a scheme without a host", () => {
    for (const value of ["javascript:alert(1)", "/users/a", "mailto:a@b.example", "https://"])
      expect(isLookupUrl(value)).toBe(false);
  });
});

describe("buildLookupPath", () => {
  it("puts the URL, encoded, in the lookup page's uri parameter", () => {
    expect(buildLookupPath("https://a.example/x?y=1")).toBe(
      "/lookup?uri=https%3A%2F%2Fa.example%2Fx%3Fy%3D1",
    );
  });
});
