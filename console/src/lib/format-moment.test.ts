import { describe, expect, it } from "vitest";
import { formatMoment, isoMoment } from "./format-moment.ts";

describe("formatMoment", () => {
  const now = new Date(2026, 10, 28, 15, 0, 0);
  it("writes a moment of today as local time to the second", () => {
    expect(formatMoment(new Date(2026, 10, 28, 2, 29, 3).getTime(), now)).toBe("02:29:03");
  });
  it("puts the date in front on any other day, from ms or an ISO string alike", () => {
    const yesterday = new Date(2026, 10, 27, 23, 59, 1);
    expect(formatMoment(yesterday.getTime(), now)).toBe("2026-11-27 23:59:01");
    expect(formatMoment(yesterday.toISOString(), now)).toBe("2026-11-27 23:59:01");
  });
  it("gives an unreadable time back as it came, and the ISO time for the hover", () => {
    expect(formatMoment("soon", now)).toBe("soon");
    expect(isoMoment("soon")).toBeNull();
    expect(isoMoment(Date.UTC(2026, 10, 28, 2, 29, 3))).toBe("2026-11-28T02:29:03.000Z");
  });
});
