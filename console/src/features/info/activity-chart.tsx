import { useEffect, useRef } from "react";
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import type { ActivityMinute } from "../../lib/wire-types.ts";
import {
  COUNT_INCREMENTS,
  completeMinutes,
  countTickLabels,
  timeLegendValue,
  timeTickLabels,
} from "./activity-scale.ts";

// Loaded lazily by activity-panel.tsx, with uPlot. One uPlot per set of colours (they come from
// the MUI palette, so dark mode stays readable); new counts only replace its data. No MUI import
// here: sharing it with the first-load bundle would make the bundler split that bundle.

export type ChartColors = {
  incoming: string;
  outgoing: string;
  error: string;
  text: string;
  grid: string;
};

const HEIGHT = 180;

type Props = { minutes: ActivityMinute[]; colors: ChartColors };

export default function ActivityChart({ minutes, colors }: Props) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  const latest = useRef(minutes);
  latest.current = minutes;

  useEffect(() => {
    const element = box.current!;
    const chart = new uPlot(options(colors, element.clientWidth), toData(latest.current), element);
    plot.current = chart;
    const resize = new ResizeObserver(() =>
      chart.setSize({ width: element.clientWidth, height: HEIGHT }),
    );
    resize.observe(element);
    return () => {
      resize.disconnect();
      chart.destroy();
      plot.current = null;
    };
  }, [colors]);

  useEffect(() => plot.current?.setData(toData(minutes)), [minutes]);

  return (
    <div ref={box} data-testid="activity-chart" style={{ width: "100%", color: colors.text }} />
  );
}

function toData(all: ActivityMinute[]): uPlot.AlignedData {
  const minutes = completeMinutes(all);
  return [
    minutes.map((m) => Date.parse(m.at) / 1000),
    minutes.map((m) => m.incoming),
    minutes.map((m) => m.outgoing),
    minutes.map((m) => m.error),
  ];
}

function options(colors: ChartColors, width: number): uPlot.Options {
  const axis = {
    stroke: colors.text,
    grid: { stroke: colors.grid, width: 1 },
    ticks: { stroke: colors.grid, width: 1 },
  };
  // Outgoing is dashed: where two series run together (a send to our own actors is one
  // outgoing and one incoming event), both stay visible.
  const line = (label: "incoming" | "outgoing" | "error") => ({
    label,
    stroke: colors[label],
    width: 2,
    dash: label === "outgoing" ? [6, 4] : undefined,
    points: { show: false },
  });
  return {
    width: Math.max(width, 200),
    height: HEIGHT,
    scales: { y: { range: (_u, _min, max) => [0, Math.max(max, 1)] } },
    axes: [
      // The console's one way to write a moment (lib/format-moment.ts), not uPlot's "4:05am".
      { ...axis, values: timeTickLabels },
      {
        ...axis,
        size: 56,
        label: "per minute",
        labelSize: 16,
        incrs: COUNT_INCREMENTS,
        values: countTickLabels,
      },
    ],
    series: [
      { label: "Time", value: timeLegendValue },
      line("incoming"),
      line("outgoing"),
      line("error"),
    ],
  };
}
