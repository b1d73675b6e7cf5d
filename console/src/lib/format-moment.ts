// One way to write a moment everywhere in the console: local time to the second, with the date
// in front when it is not today; the full ISO time is given on hover (components/moment).

const pad = (n: number) => String(n).padStart(2, "0");

/** A moment as ms, a Date or an ISO string; null when it cannot be read. */
export function readMoment(at: number | string | Date): Date | null {
  const date = at instanceof Date ? at : new Date(at);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** `14:05:09` today, `2026-11-27 14:05:09` on any other day (local time); as it came if unreadable. */
export function formatMoment(at: number | string | Date, now: Date = new Date()): string {
  const date = readMoment(at);
  if (date === null) return String(at);
  const time = `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
  const sameDay =
    date.getFullYear() === now.getFullYear() &&
    date.getMonth() === now.getMonth() &&
    date.getDate() === now.getDate();
  if (sameDay) return time;
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${time}`;
}

/** The full ISO time (UTC), for the hover; null when it cannot be read. */
export function isoMoment(at: number | string | Date): string | null {
  return readMoment(at)?.toISOString() ?? null;
}
