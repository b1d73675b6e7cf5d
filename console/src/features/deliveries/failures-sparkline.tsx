import { useTheme } from "@mui/material";

const BAR_WIDTH = 6;
const GAP = 2;
const HEIGHT = 20;

/** "Failures per day, last 7 days: 0, 0, 3, 1, 0, 0, 2" (oldest first): the chart's name. */
export function describeFailuresByDay(counts: number[]): string {
  return `Failures per day, last ${counts.length} days: ${counts.join(", ")}`;
}

/**
 * Failures per day as small bars, oldest on the left, today on the right. Our own SVG: a chart
 * library is far more than seven bars need. A day without failures keeps a 1 px baseline so the
 * seven days stay visible.
 */
export function FailuresSparkline({ counts }: { counts: number[] }) {
  const theme = useTheme();
  const highest = Math.max(1, ...counts);
  const width = counts.length * (BAR_WIDTH + GAP) - GAP;
  const label = describeFailuresByDay(counts);
  return (
    <svg
      role="img"
      aria-label={label}
      width={width}
      height={HEIGHT}
      viewBox={`0 0 ${width} ${HEIGHT}`}
      style={{ display: "block", flexShrink: 0 }}
    >
      <title>{label}</title>
      {counts.map((count, day) => {
        const height = count === 0 ? 1 : Math.max(3, Math.round((count / highest) * HEIGHT));
        return (
          <rect
            key={day}
            x={day * (BAR_WIDTH + GAP)}
            y={HEIGHT - height}
            width={BAR_WIDTH}
            height={height}
            fill={count === 0 ? theme.palette.divider : theme.palette.error.main}
          />
        );
      })}
    </svg>
  );
}
