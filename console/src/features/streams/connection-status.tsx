import { useEffect, useState } from "react";
import { Box, Typography } from "@mui/material";
import { useConnection, type ConnectionStatus } from "../../lib/stream-connection.ts";
import { STREAM_TYPES, type StreamType } from "../../lib/stream-store.ts";
import { STREAM_LABELS } from "./stream-labels.ts";
import type { StreamSource } from "./use-live-messages.ts";

/** The status region: one line for a stream, one per stream on "All". */
export function ConnectionStatusRegion({ source }: { source: StreamSource }) {
  return (
    <Box role="status" aria-label="Connection" sx={{ minHeight: 24 }}>
      {source === "all" ? (
        STREAM_TYPES.map((type) => (
          <StatusLine key={type} type={type} label={STREAM_LABELS[type]} />
        ))
      ) : (
        <StatusLine type={source} />
      )}
    </Box>
  );
}

function StatusLine({ type, label }: { type: StreamType; label?: string }) {
  const status = useConnection(type, (state) => state.status);
  const text = useStatusText(status);
  const color =
    status.kind === "connected"
      ? "success.main"
      : status.kind === "disconnected"
        ? "error.main"
        : "text.secondary";
  return (
    <Typography variant="body2" sx={{ color }}>
      {label ? `${label}: ${text}` : text}
    </Typography>
  );
}

/** "Reconnecting in N s" counts down once a second; nothing else re-renders for it. */
function useStatusText(status: ConnectionStatus): string {
  const [now, setNow] = useState(() => Date.now());
  const counting = status.kind === "reconnecting";
  useEffect(() => {
    if (!counting) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, [counting, status]);
  switch (status.kind) {
    case "idle":
      return "Not connected";
    case "connecting":
      return "Connecting…";
    case "connected":
      return "Connected";
    case "disconnected":
      return `Disconnected: ${status.reason}`;
    case "reconnecting": {
      const seconds = Math.ceil((status.retryAt - now) / 1000);
      return seconds > 0 ? `Reconnecting in ${seconds} s` : "Reconnecting…";
    }
  }
}
