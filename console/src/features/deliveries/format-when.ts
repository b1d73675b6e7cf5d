import { formatMoment } from "../../lib/format-moment.ts";

/** A stored ISO time as the console writes moments; none as "never". */
export function formatWhen(iso: string | null): string {
  return iso === null ? "never" : formatMoment(iso);
}
