import { Moment } from "../../components/moment/index.ts";
import { useEffect } from "react";
import { Alert, Box, Button, CircularProgress, Typography } from "@mui/material";
import { useStreamStore, type StreamType } from "../../lib/streams/stream-store.ts";
import { learnReach, loadEarlier, useStreamReach, type StreamReach } from "./server-history.ts";
import type { StreamSource } from "./use-live-messages.ts";

function useReachOf(type: StreamType, wanted: boolean) {
  const reach = useStreamReach(type);
  const oldestAt = useStreamStore(type, (s) =>
    wanted ? (s.messages[0]?.receivedAt ?? null) : null,
  );
  const hydrated = useStreamStore(type, (s) => s.hydrated);
  return { type, wanted, reach, oldestAt, hydrated };
}

/** Where the list begins and "Load earlier", above the list (docs/server-guide.md#history). */
export function HistoryBar({ source }: { source: StreamSource }) {
  const parts = [
    useReachOf("incoming", source === "all" || source === "incoming"),
    useReachOf("outgoing", source === "all" || source === "outgoing"),
    useReachOf("error", source === "all" || source === "error"),
  ].filter((part) => part.wanted);
  const allHydrated = parts.every((p) => p.hydrated);
  const streamsKey = parts.map((p) => p.type).join(",");
  useEffect(() => {
    if (!allHydrated) return;
    for (const type of streamsKey.split(",") as StreamType[]) void learnReach(type);
  }, [allHydrated, streamsKey]);

  const reaches: StreamReach[] = parts.map((p) => p.reach);
  if (reaches.some((r) => r.absent)) {
    return (
      <Typography variant="body2" sx={{ mb: 2 }} data-testid="history-begins">
        The server keeps no history of this stream that the console can page through: the list holds
        only what this browser received (cattle_grid returns just its 10 newest events).
      </Typography>
    );
  }
  const loading = reaches.some((r) => r.loading);
  const everything = reaches.every((r) => r.reachedStart === true);
  // The list is complete from the latest of the streams' starts that are not the server's start.
  const starts = parts
    .filter((p) => p.reach.reachedStart !== true && p.oldestAt !== null)
    .map((p) => p.oldestAt!);
  const begins = everything
    ? "Everything the server keeps"
    : starts.length > 0
      ? Math.max(...starts)
      : null;
  const errors = reaches.map((r) => r.error).filter((e): e is string => e !== null);
  const loadAll = () => {
    for (const part of parts) if (part.reach.reachedStart !== true) void loadEarlier(part.type);
  };
  return (
    <Box sx={{ mb: 2 }}>
      <Box sx={{ display: "flex", alignItems: "center", gap: 2, flexWrap: "wrap" }}>
        <Button
          variant="outlined"
          size="small"
          onClick={loadAll}
          disabled={everything || loading}
          startIcon={loading ? <CircularProgress size={14} aria-hidden /> : undefined}
        >
          Load earlier
        </Button>
        {loading && (
          <Typography variant="body2" role="status">
            Loading earlier messages…
          </Typography>
        )}
        {begins && (
          <Typography variant="body2" data-testid="history-begins">
            {typeof begins === "number" ? (
              <>
                Since <Moment at={begins} />
              </>
            ) : (
              begins
            )}
          </Typography>
        )}
      </Box>
      {errors.map((error) => (
        <Alert key={error} severity="error" sx={{ mt: 1 }}>
          {error}
        </Alert>
      ))}
    </Box>
  );
}
