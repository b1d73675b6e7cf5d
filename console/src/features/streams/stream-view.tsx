import { useCallback, useMemo, useRef, useState } from "react";
import { Alert, Box, Typography } from "@mui/material";
import { useSearchParams } from "react-router";
import { getConnectionTracker } from "../../lib/streams/stream-connection.ts";
import { getStreamStore, STREAM_TYPES } from "../../lib/streams/stream-store.ts";
import { useActorHandles, useLearnHandles } from "../../lib/actor-handles.ts";
import { useUserStore } from "../../lib/user-store.ts";
import { ConnectionStatusRegion } from "./connection-status.tsx";
import {
  downloadFile,
  exportContent,
  exportFileName,
  type ExportFormat,
} from "./export-messages.ts";
import { HistoryBar } from "./history-bar.tsx";
import { buildRows, type ListRow } from "./list-rows.ts";
import { MessageCard } from "./message-card.tsx";
import { MessageList } from "./message-list.tsx";
import { forgetStreamReach } from "./server-history.ts";
import { StreamControls } from "./stream-controls.tsx";
import { StreamSidePanel } from "./stream-side-panel.tsx";
import { useLinkedEvent } from "./use-linked-event.ts";
import { useLiveMessages, type StreamSource } from "./use-live-messages.ts";
import { useMessageQuery } from "./use-message-query.ts";
import { usePause } from "./use-pause.ts";
import { countRetained, unionByEvent, useServerSearch, withinRange } from "./use-server-search.ts";
import { useStreamShortcuts } from "./use-stream-shortcuts.ts";
import { useTypeFilter } from "./use-type-filter.ts";
import { useViewPreferences } from "./view-preferences.ts";

/** One stream, or "all" of them merged: list, search, filter, pause, export, reset. */
export function StreamView({ source }: { source: StreamSource }) {
  const live = useLiveMessages(source);
  const { chosen, setChosen } = useTypeFilter(live.activityTypes);
  const [search, setSearch] = useState("");
  const [from, setFrom] = useState("");
  const [to, setTo] = useState("");
  const range = useMemo(
    () => ({ since: readLocalTime(from), until: readLocalTime(to) }),
    [from, to],
  );
  const liveRef = useRef(live.messages);
  liveRef.current = live.messages;
  // Held messages that match the text and range; with the server's matches (everything it keeps)
  // once it answered; then the type filter.
  // Paused, the list stays as it was under a search too: what the server answers from after the
  // pause waits behind "N new" with the rest.
  const server = useServerSearch(source, search, range);
  const pause = usePause(live.messages, server.matches);
  const held = useMemo(() => withinRange(pause.listed, range), [pause.listed, range]);
  const query = useMemo(() => ({ text: search, activityType: "" }), [search]);
  const local = useMessageQuery(held, query);
  const serverMatches = pause.retainedListed;
  const matches = useMemo(
    () => (serverMatches ? unionByEvent(serverMatches, local.shown) : local.shown),
    [serverMatches, local.shown],
  );
  const shown = useMemo(
    () => (chosen === "" ? matches : matches.filter((m) => m.activityType === chosen)),
    [matches, chosen],
  );
  const searching = local.searching || server.waiting;
  // A server search counts against what the server keeps (and what arrived since).
  const ofCount = useMemo(
    () => (server.retained ? countRetained(server.retained, live.messages) : undefined),
    [server.retained, live.messages],
  );
  const { compact, newestFirst } = useViewPreferences();
  const rows = useMemo(
    () => buildRows(shown, live.markers, newestFirst),
    [shown, live.markers, newestFirst],
  );
  const knownHandles = useActorHandles((state) => state.handles);
  // The account's own actors are named by handle too (the account info gives display names).
  const accountActors = useUserStore((state) => state.actors);
  useLearnHandles(useMemo(() => accountActors.map((actor) => actor.id), [accountActors]));
  // ?event=N: the message a call's record links to (its id on this stream), shown and marked.
  const [params] = useSearchParams();
  const event = source === "all" ? null : params.get("event");
  const focusKey = useMemo(() => findEventRow(rows, event), [rows, event]);
  // A linked message this browser does not hold is asked of the server by its id.
  const liveMessages = live.messages;
  const linkedWanted = useMemo(
    () =>
      event !== null && source !== "all" && !liveMessages.some((m) => m.id === event)
        ? { stream: source, id: event }
        : null,
    [event, source, liveMessages],
  );
  const linked = useLinkedEvent(focusKey === null ? linkedWanted : null);
  const searchRef = useRef<HTMLInputElement>(null);

  const { forgetFrozen, resumeToNew } = pause;
  const reset = useCallback(() => {
    for (const type of source === "all" ? STREAM_TYPES : [source]) {
      getStreamStore(type).getState().reset();
      getConnectionTracker(type).clearMarkers();
      forgetStreamReach(type);
    }
    forgetFrozen();
  }, [source, forgetFrozen]);
  // "N new": resume and bring the new messages into view (the newest on top, or the first of
  // them when oldest come first).
  const [reveal, setReveal] = useState<{ key: string; at: number } | null>(null);
  const showNew = useCallback(() => {
    const first = resumeToNew();
    const newest = liveRef.current.at(-1);
    const target = newestFirst ? newest : first;
    if (target) setReveal({ key: `${target.stream}:${target.seq}`, at: performance.now() });
  }, [resumeToNew, newestFirst]);
  const shownRef = useRef(shown);
  shownRef.current = shown;
  const onExport = useCallback(
    (format: ExportFormat) =>
      downloadFile(
        exportFileName(source, format, new Date()),
        exportContent(shownRef.current, format),
        format,
      ),
    [source],
  );
  useStreamShortcuts({
    focusSearch: () => searchRef.current?.focus(),
    togglePause: pause.toggle,
    clearSearch: () => setSearch(""),
  });

  return (
    // The panel comes first: above the list below 900 px, where a column beside it would leave
    // the messages a few characters per line; to its right (row-reverse) on wider screens.
    <Box
      sx={{
        display: "flex",
        flexDirection: { xs: "column", md: "row-reverse" },
        gap: 2,
        alignItems: { xs: "stretch", md: "flex-start" },
      }}
    >
      <StreamSidePanel
        search={search}
        onSearch={setSearch}
        searchRef={searchRef}
        shownCount={shown.length}
        heldCount={live.messages.length}
        ofCount={ofCount}
        from={from}
        to={to}
        onFrom={setFrom}
        onTo={setTo}
        searching={searching}
        activityTypes={live.activityTypes}
        chosen={chosen}
        onChoose={setChosen}
        onReset={reset}
      >
        <ConnectionStatusRegion source={source} />
        <StreamControls
          paused={pause.paused}
          newCount={pause.newCount}
          onTogglePause={pause.toggle}
          onShowNew={showNew}
          onExport={onExport}
        />
      </StreamSidePanel>
      <Box sx={{ flexGrow: 1, minWidth: 0 }}>
        {live.storageNote && (
          <Alert severity="warning" sx={{ mb: 2 }}>
            {live.storageNote}
          </Alert>
        )}
        {server.error && (
          <Alert severity="error" sx={{ mb: 2 }}>
            Searching what the server keeps failed: {server.error} The list shows only the matching
            messages this browser holds.
          </Alert>
        )}
        {server.absent &&
          (search.trim() !== "" || range.since !== null || range.until !== null) && (
            <Alert severity="info" sx={{ mb: 2 }}>
              The server offers no search of what it keeps: this search covers only the messages
              this browser holds.
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
        {event !== null && focusKey === null && linked.kind === "found" && (
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
        )}
        {event !== null && focusKey === null && linked.kind === "waiting" && (
          <Alert severity="info" sx={{ mb: 2 }} role="status">
            Asking the server for message {event}…
          </Alert>
        )}
        {event !== null && focusKey === null && linked.kind === "gone" && (
          <Alert severity="info" sx={{ mb: 2 }}>
            Message {event} is no longer kept by the server.
          </Alert>
        )}
        {event !== null &&
          focusKey === null &&
          (linked.kind === "none" || linked.kind === "failed") && (
            <Alert severity="info" sx={{ mb: 2 }}>
              Message {event} is not among the messages listed here: it arrived before this console
              connected, was reset, or is hidden by the search or the type filter.
              {linked.kind === "failed" && ` Asking the server for it failed: ${linked.reason}`}
            </Alert>
          )}
        {rows.length === 0 ? (
          <Typography>Nothing to display</Typography>
        ) : (
          <MessageList
            rows={rows}
            compact={compact}
            showStream={source === "all"}
            knownHandles={knownHandles}
            focusKey={focusKey}
            reveal={reveal}
            newestFirst={newestFirst}
            startAtNewest={event === null}
          />
        )}
      </Box>
    </Box>
  );
}

/** A "From"/"To" field's local date and time in ms, or null when empty. */
export function readLocalTime(value: string): number | null {
  if (value === "") return null;
  const ms = new Date(value).getTime();
  return Number.isNaN(ms) ? null : ms;
}

/** The key of the row holding the message with this stream id, or null. */
function findEventRow(rows: readonly ListRow[], event: string | null): string | null {
  if (event === null) return null;
  const row = rows.find((r) => r.kind === "message" && r.message.id === event);
  return row?.key ?? null;
}
