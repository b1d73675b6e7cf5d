import { Alert } from "@mui/material";
import type { StreamMarker } from "../../lib/stream-connection.ts";
import { formatClock } from "./message-summary.ts";

export function markerText(marker: StreamMarker): string {
  return marker.kind === "replayed"
    ? `Reconnected: ${marker.count} missed messages replayed`
    : `Gap: messages may be missing between ${formatClock(marker.from)} and ${formatClock(marker.to)}`;
}

/** A reconnect's marker in the list, between the messages before and after it. */
export function MarkerLine({ marker, label }: { marker: StreamMarker; label?: string }) {
  const text = markerText(marker);
  return (
    <Alert
      severity={marker.kind === "replayed" ? "info" : "warning"}
      data-testid="stream-marker"
      sx={{ py: 0 }}
    >
      {label ? `${label}: ${text}` : text}
    </Alert>
  );
}
