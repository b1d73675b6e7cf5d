import { lazy, Suspense, useMemo } from "react";
import { LinearProgress, Typography, useTheme } from "@mui/material";
import type { ActivityMinute } from "../../lib/wire-types.ts";
import { ActivityBoundary, ActivityFigure, ActivityLoading } from "./activity-figure.tsx";
import { useAccountActivity } from "./use-account-activity.ts";

// Loaded lazily by the Info page; uPlot in turn loads only once there are counts to draw, and if
// it cannot load or draw (no canvas), the counts stay readable above it.
const ActivityChart = lazy(() => import("./activity-chart.tsx"));

/** The figure "Activity, last hour": incoming, outgoing and error events per minute. */
export default function ActivityPanel() {
  const { activity, stale } = useAccountActivity();
  const { palette } = useTheme();
  const colors = useMemo(
    () => ({
      incoming: palette.info.main,
      outgoing: palette.success.main,
      error: palette.error.main,
      text: palette.text.secondary,
      grid: palette.divider,
    }),
    [palette],
  );
  return (
    <ActivityFigure>
      {activity.state === "loading" && <ActivityLoading />}
      {activity.state === "unsupported" && (
        <Typography color="text.secondary">
          The upstream server does not report activity (it has no /fe/account/activity).
        </Typography>
      )}
      {activity.state === "failed" && (
        <Typography color="error">Could not load the activity: {activity.reason}</Typography>
      )}
      {activity.state === "ready" && (
        <>
          <Typography variant="body2">{summarise(activity.minutes)}</Typography>
          <Typography variant="body2" color="text.secondary">
            Events per minute
          </Typography>
          <ActivityBoundary what="The chart">
            <Suspense fallback={<LinearProgress aria-label="Loading the chart" sx={{ my: 2 }} />}>
              <ActivityChart minutes={activity.minutes} colors={colors} />
            </Suspense>
          </ActivityBoundary>
          {stale && (
            <Typography variant="body2" color="error">
              Not updated: {stale}
            </Typography>
          )}
        </>
      )}
    </ActivityFigure>
  );
}

export function summarise(minutes: ActivityMinute[]): string {
  const sum = (key: "incoming" | "outgoing" | "error") =>
    minutes.reduce((total, minute) => total + minute[key], 0);
  return `In the last hour: ${sum("incoming")} incoming, ${sum("outgoing")} outgoing, ${sum("error")} error`;
}
