import { formatMoment, isoMoment } from "../../lib/format-moment.ts";

/**
 * A moment as the console writes it (lib/format-moment.ts), its full ISO time on hover and in
 * `dateTime`. Absent (null) it reads `none` ("never" where that is the word).
 */
export function Moment({ at, none = "never" }: { at: number | string | null; none?: string }) {
  if (at === null) return <>{none}</>;
  const iso = isoMoment(at);
  if (iso === null) return <>{String(at)}</>;
  return (
    <time dateTime={iso} title={iso}>
      {formatMoment(at)}
    </time>
  );
}
