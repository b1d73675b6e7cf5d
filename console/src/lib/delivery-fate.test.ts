import { describe, expect, it } from "vitest";
import { describeDeliveryFate, fateOfHost, inboxOfDelivery } from "./delivery-fate.ts";

describe("a delivery's fate in words", () => {
  it("says a refused delivery was not sent, with the reason's words", () => {
    const delivery = {
      inbox: "https://no-such-host.invalid/users/x",
      state: "refused",
      attempts: 0,
      lastError:
        "https://no-such-host.invalid/users/x could not be reached: ENOTFOUND (the name does not resolve)",
    };
    expect(describeDeliveryFate(delivery)).toBe("not sent: the name does not resolve");
    // The target's URL is not an inbox: none was found.
    expect(inboxOfDelivery(delivery)).toBeNull();
  });

  it("keeps a known-gone inbox as the inbox it is", () => {
    const inbox = "https://gone.example/inbox";
    const delivery = {
      inbox,
      state: "refused",
      attempts: 0,
      lastError: `${inbox} answered 410 Gone at 2026-11-28T00:00:00.000Z: not tried until gone.example answers again`,
    };
    expect(inboxOfDelivery(delivery)).toBe(inbox);
  });

  it("names a host by what became of what was sent to it", () => {
    expect(fateOfHost({ state: "ok", queued: 0 })).toBe("delivered");
    expect(fateOfHost({ state: "ok", queued: 2 })).toBe("queued");
    expect(fateOfHost({ state: "failing", queued: 3 })).toBe("retrying");
    expect(fateOfHost({ state: "failing", queued: 0 })).toBe("failed");
    expect(fateOfHost({ state: "failing", queued: 6, hold: { since: "…" } })).toBe("held");
    expect(fateOfHost({ state: "stopped", queued: 3, hold: null })).toBe("stopped");
  });
});
