import { Component, type ReactNode } from "react";
import { LinearProgress, Paper, Typography } from "@mui/material";

// The frame of the Info page's activity chart, in the first-load bundle: the figure and its
// caption while the chart's own chunk (uPlot included) loads, or if that chunk cannot load.

export const ACTIVITY_TITLE = "Activity, last hour";

export function ActivityFigure({ children }: { children: ReactNode }) {
  return (
    <Paper
      component="figure"
      variant="outlined"
      aria-labelledby="activity-title"
      sx={{ p: 2, mx: 0, mt: 0, mb: 3 }}
    >
      <Typography id="activity-title" component="figcaption" variant="h6" gutterBottom>
        {ACTIVITY_TITLE}
      </Typography>
      {children}
    </Paper>
  );
}

export function ActivityLoading() {
  return (
    <>
      <Typography>Loading activity...</Typography>
      <LinearProgress aria-label="Loading activity" sx={{ mt: 1 }} />
    </>
  );
}

/** Whatever fails below (a chunk that does not load, a canvas that cannot draw) is said in words. */
export class ActivityBoundary extends Component<
  { children: ReactNode; what: string },
  { reason: string | null }
> {
  override state = { reason: null as string | null };

  static getDerivedStateFromError(error: unknown) {
    return { reason: error instanceof Error ? error.message : String(error) };
  }

  override render(): ReactNode {
    if (this.state.reason === null) return this.props.children;
    return (
      <Typography variant="body2" color="error">
        {this.props.what} could not be shown: {this.state.reason}
      </Typography>
    );
  }
}
