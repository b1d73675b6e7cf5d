import { Alert, Box, Typography } from "@mui/material";
import type { KnownHandles } from "./message-summary.ts";
import { HistoryBar } from "./history-bar.tsx";
import { MessageCard } from "./message-card.tsx";
import type { LinkedEvent } from "./use-linked-event.ts";
import type { StreamSource } from "./use-live-messages.ts";
import type { ServerSearch } from "./use-server-search.ts";

type SearchNoticesProps = {
  source: StreamSource;
  storageNote: string | null;
  server: ServerSearch;
  /** A text or a time range is set. */
  filtered: boolean;
};

/**
 * Above the list: what this browser could not store, how a search of what the server keeps went,
 * and, with no search, how far back the history goes.
 */
export function SearchNotices({ source, storageNote, server, filtered }: SearchNoticesProps) {
  return (
    <>
      {storageNote && (
        <Alert severity="warning" sx={{ mb: 2 }}>
          {storageNote}
        </Alert>
      )}
      {server.error && (
        <Alert severity="error" sx={{ mb: 2 }}>
          Searching what the server keeps failed: {server.error} The list shows only the matching
          messages this browser holds.
        </Alert>
      )}
      {server.absent && filtered && (
        <Alert severity="info" sx={{ mb: 2 }}>
          The server offers no search of what it keeps: this search covers only the messages this
          browser holds.
        </Alert>
      )}
      {server.active ? (
        <Typography variant="body2" sx={{ mb: 2 }} data-testid="history-begins">
          {server.waiting
            ? "Searching everything the server keeps…"
            : "Matches among everything the server keeps"}
        </Typography>
      ) : (
        <HistoryBar source={source} />
      )}
    </>
  );
}

type LinkedEventNoticeProps = {
  /** The stream id of the linked message, which is not among the rows listed. */
  event: string;
  linked: LinkedEvent;
  compact: boolean;
  knownHandles: KnownHandles;
};

/** A linked message not listed: the server's copy of it, the wait for it, or why it is missing. */
export function LinkedEventNotice({
  event,
  linked,
  compact,
  knownHandles,
}: LinkedEventNoticeProps) {
  switch (linked.kind) {
    case "found":
      return (
        <Box sx={{ mb: 2 }}>
          <Alert severity="info" sx={{ mb: 1 }}>
            Message {event} is not among the messages listed here; the server still keeps it:
          </Alert>
          <MessageCard
            message={linked.message}
            compact={compact}
            showStream={false}
            knownHandles={knownHandles}
            focused
          />
        </Box>
      );
    case "waiting":
      return (
        <Alert severity="info" sx={{ mb: 2 }} role="status">
          Asking the server for message {event}…
        </Alert>
      );
    case "gone":
      return (
        <Alert severity="info" sx={{ mb: 2 }}>
          Message {event} is no longer kept by the server.
        </Alert>
      );
    case "none":
    case "failed":
      return (
        <Alert severity="info" sx={{ mb: 2 }}>
          Message {event} is not among the messages listed here: it arrived before this console
          connected, was reset, or is hidden by the search or the type filter.
          {linked.kind === "failed" && ` Asking the server for it failed: ${linked.reason}`}
        </Alert>
      );
  }
}
