/**
 * A stored ISO time in the reader's locale, to the minute (a table of hosts has no room for
 * seconds); none as "never"; an unreadable one as it came.
 */
export function formatWhen(iso: string | null): string {
  if (iso === null) return "never";
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? iso
    : date.toLocaleString(undefined, { dateStyle: "short", timeStyle: "short" });
}
