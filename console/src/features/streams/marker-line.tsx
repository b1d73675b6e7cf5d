import { Alert } from "@mui/material";
import type { StreamMarker } from "../../lib/streams/stream-connection.ts";
import { formatMoment } from "../../lib/format-moment.ts";

export function markerText(marker: StreamMarker): string {
  if (marker.kind === "replayed") return `Reconnected: ${marker.count} missed messages replayed`;
  if (marker.replayed === 0) return "Reconnected: messages sent while disconnected may be missing";
  return `Reconnected: ${marker.replayed} missed messages replayed from the upstream's history; earlier ones may be missing`;
}

/** When the connection was lost and regained, for the marker's tooltip. */
function markerSpan(marker: StreamMarker): string | undefined {
  if (marker.kind !== "gap") return undefined;
  return `Disconnected from ${formatMoment(marker.from)} to ${formatMoment(marker.to)}`;
}

/** A reconnect's marker in the list, between the messages before and after it. */
export function MarkerLine({ marker, label }: { marker: StreamMarker; label?: string }) {
  const text = markerText(marker);
  return (
    <Alert
      severity={marker.kind === "replayed" ? "info" : "warning"}
      data-testid="stream-marker"
      title={markerSpan(marker)}
      sx={{ py: 0 }}
    >
      {label ? `${label}: ${text}` : text}
    </Alert>
  );
}
