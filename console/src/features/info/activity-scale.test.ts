import { describe, expect, it } from "vitest";
import {
  COUNT_INCREMENTS,
  completeMinutes,
  countTickLabels,
  timeLegendValue,
  timeTickLabels,
} from "./activity-scale.ts";

const minute = (at: string, incoming = 1) => ({ at, incoming, outgoing: 0, error: 0 });

describe("activity chart", () => {
  it("draws only complete minutes: the current one, still counting, is no drop", () => {
    const minutes = [minute("2026-11-26T10:00:00Z"), minute("2026-11-26T10:01:00Z")];
    const now = Date.parse("2026-11-26T10:01:30Z");
    expect(completeMinutes(minutes, now).map((m) => m.at)).toEqual(["2026-11-26T10:00:00Z"]);
    expect(completeMinutes(minutes, Date.parse("2026-11-26T10:02:00Z"))).toHaveLength(2);
  });

  it("ticks the count axis in whole numbers only", () => {
    expect(COUNT_INCREMENTS.every((step) => Number.isInteger(step) && step >= 1)).toBe(true);
    expect(countTickLabels(null, [0, 0.5, 1, 1.5, 2])).toEqual(["0", "", "1", "", "2"]);
  });

  it("writes its time ticks and the legend's time in the console's one format (local, 24 h)", () => {
    // uPlot's own format ("4:05am", "11/28/26 5:10am") was seen beside "05:04:40" everywhere else.
    const today = new Date();
    today.setHours(16, 5, 0, 0);
    const earlier = new Date(2026, 0, 2, 9, 30, 0);
    expect(timeTickLabels(null, [today.getTime() / 1000, earlier.getTime() / 1000])).toEqual([
      "16:05",
      "2026-01-02 09:30",
    ]);
    expect(timeLegendValue(null, today.getTime() / 1000)).toBe("16:05:00");
    expect(timeLegendValue(null, null)).toBe("--");
  });
});
