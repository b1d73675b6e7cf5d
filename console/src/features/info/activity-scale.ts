// What the activity chart draws and how its count axis is ticked; pure, without uPlot (which
// needs a browser to load), so tests can read it.
import { formatMoment } from "../../lib/format-moment.ts";
import type { ActivityMinute } from "../../lib/wire-types.ts";

const MINUTE_MS = 60_000;

/**
 * The minutes to draw: every complete one. The current minute is still counting, so drawn it
 * would look like a drop at the right edge; the summary above still counts it.
 */
export function completeMinutes(minutes: ActivityMinute[], now = Date.now()): ActivityMinute[] {
  return minutes.filter((minute) => Date.parse(minute.at) + MINUTE_MS <= now);
}

/** Tick steps of the count axis: whole numbers only (no "0.5 events"). */
export const COUNT_INCREMENTS = [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500]
  .flatMap((step) => [step, step * 1_000, step * 1_000_000])
  .sort((a, b) => a - b);

/** Tick labels of the count axis: whole numbers as they are, nothing between them. */
export function countTickLabels(_u: unknown, splits: number[]): string[] {
  return splits.map((value) => (Number.isInteger(value) ? String(value) : ""));
}

/** Tick labels of the time axis (seconds): the console's moment to the minute, `16:05`. */
export function timeTickLabels(_u: unknown, splits: number[]): string[] {
  return splits.map((seconds) => formatMoment(seconds * 1000).slice(0, -3));
}

/** The legend's time (seconds) under the pointer, as the console writes a moment. */
export function timeLegendValue(_u: unknown, seconds: number | null): string {
  return seconds === null ? "--" : formatMoment(seconds * 1000);
}
