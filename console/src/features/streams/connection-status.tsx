import { useEffect, useState } from "react";
import { Box, Button, Typography } from "@mui/material";
import { useStore } from "zustand";
import {
  getConnectionStore,
  reconnectStream,
  useConnection,
  type ConnectionStatus,
} from "../../lib/streams/stream-connection.ts";
import { STREAM_TYPES, type StreamType } from "../../lib/streams/stream-store.ts";
import { STREAM_LABELS } from "./stream-labels.ts";
import type { StreamSource } from "./use-live-messages.ts";

/**
 * The status region: one line for a stream, one per stream on "All"; then, while a stream waits
 * to reconnect, "Reconnect now", or after it was given up, "Reconnect" (outside the region, so
 * that what the region reads out is the status alone).
 */
export function ConnectionStatusRegion({ source }: { source: StreamSource }) {
  const types = source === "all" ? STREAM_TYPES : [source];
  return (
    <>
      <Box role="status" aria-label="Connection" sx={{ minHeight: 24 }}>
        {source === "all" ? (
          STREAM_TYPES.map((type) => (
            <StatusLine key={type} type={type} label={STREAM_LABELS[type]} />
          ))
        ) : (
          <StatusLine type={source} />
        )}
      </Box>
      <ReconnectButton types={types} />
    </>
  );
}

function ReconnectButton({ types }: { types: readonly StreamType[] }) {
  const kinds: Record<StreamType, ConnectionStatus["kind"]> = {
    incoming: useStore(getConnectionStore("incoming"), (state) => state.status.kind),
    outgoing: useStore(getConnectionStore("outgoing"), (state) => state.status.kind),
    error: useStore(getConnectionStore("error"), (state) => state.status.kind),
  };
  const shown = STREAM_TYPES.filter((type) => types.includes(type));
  const kindOf = (type: StreamType) => kinds[type];
  const waiting = shown.filter((type) => kindOf(type) === "reconnecting");
  const given = shown.filter((type) => kindOf(type) === "disconnected");
  const targets = waiting.length > 0 ? waiting : given;
  if (targets.length === 0) return null;
  return (
    <Button
      size="small"
      variant="outlined"
      sx={{ alignSelf: "flex-start" }}
      onClick={() => targets.forEach(reconnectStream)}
    >
      {waiting.length > 0 ? "Reconnect now" : "Reconnect"}
    </Button>
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
      const why = status.cause === "unreachable" ? " (upstream unreachable)" : "";
      return seconds > 0 ? `Reconnecting in ${seconds} s${why}` : `Reconnecting…${why}`;
    }
  }
}
