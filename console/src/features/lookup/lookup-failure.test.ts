import { describe, expect, it } from "vitest";
import type { FeResponse } from "../../lib/fe-client.ts";
import type { LookupResult } from "../../lib/wire-types.ts";
import { describeLookupFailure } from "./lookup-failure.tsx";

const answered = (data: unknown) => ({ ok: true, status: 200, data }) as FeResponse<LookupResult>;

describe("describeLookupFailure", () => {
  it("says in a sentence that nothing answered when the answer is {} (a real cattle_grid)", () => {
    expect(describeLookupFailure(answered({}))).toBe(
      "Not found: nothing answered at this URI, and the server gave no reason.",
    );
  });

  it("says the same for raw: null without a reason, and gives Corral's reason when there is one", () => {
    expect(describeLookupFailure(answered({ raw: null }))).toMatch(/^Not found: nothing answered/);
    expect(describeLookupFailure(answered({ raw: null, error: "Connection refused" }))).toBe(
      "Not found: Connection refused",
    );
  });

  it("is silent for a found document", () => {
    expect(describeLookupFailure(answered({ raw: { id: "https://a.example/x" } }))).toBeNull();
  });

  it("says a server that is away in the words every page uses", () => {
    const away = {
      ok: false,
      status: 502,
      unreachable: true,
      data: { detail: "The server is not answering (HTTP 502)" },
    } as const;
    expect(describeLookupFailure(away)).toBe(
      "Lookup failed: The server is not answering (HTTP 502)",
    );
  });
});
