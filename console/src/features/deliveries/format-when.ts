/** A stored ISO time in the reader's locale; none as "never"; an unreadable one as it came. */
export function formatWhen(iso: string | null): string {
  if (iso === null) return "never";
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
}
