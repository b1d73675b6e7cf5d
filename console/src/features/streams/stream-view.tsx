import { useCallback, useMemo, useRef, useState } from "react";
import { Alert, Box, Typography } from "@mui/material";
import { useSearchParams } from "react-router";
import { getConnectionTracker } from "../../lib/stream-connection.ts";
import { getStreamStore, STREAM_TYPES } from "../../lib/stream-store.ts";
import { useActorHandles, useLearnHandles } from "../../lib/actor-handles.ts";
import { useUserStore } from "../../lib/user-store.ts";
import { ConnectionStatusRegion } from "./connection-status.tsx";
import {
  downloadFile,
  exportContent,
  exportFileName,
  type ExportFormat,
} from "./export-messages.ts";
import { buildRows, type ListRow } from "./list-rows.ts";
import { MessageList } from "./message-list.tsx";
import { StreamControls } from "./stream-controls.tsx";
import { StreamSidePanel } from "./stream-side-panel.tsx";
import { useLiveMessages, type StreamSource } from "./use-live-messages.ts";
import { useMessageQuery } from "./use-message-query.ts";
import { usePause } from "./use-pause.ts";
import { useStreamShortcuts } from "./use-stream-shortcuts.ts";
import { useTypeFilter } from "./use-type-filter.ts";
import { useViewPreferences } from "./view-preferences.ts";

/** One stream, or "all" of them merged: list, search, filter, pause, export, reset. */
export function StreamView({ source }: { source: StreamSource }) {
  const live = useLiveMessages(source);
  const { chosen, setChosen } = useTypeFilter(live.activityTypes);
  const [search, setSearch] = useState("");
  const pause = usePause(live.messages);
  const liveRef = useRef(live.messages);
  liveRef.current = live.messages;
  const query = useMemo(() => ({ text: search, activityType: chosen }), [search, chosen]);
  const { shown, searching } = useMessageQuery(pause.listed, query);
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
  const searchRef = useRef<HTMLInputElement>(null);

  const { forgetFrozen, resumeToNew } = pause;
  const reset = useCallback(() => {
    for (const type of source === "all" ? STREAM_TYPES : [source]) {
      getStreamStore(type).getState().reset();
      getConnectionTracker(type).clearMarkers();
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
        {event !== null && focusKey === null && (
          <Alert severity="info" sx={{ mb: 2 }}>
            Message {event} is not among the messages listed here: it arrived before this console
            connected, was reset, or is hidden by the search or the type filter.
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
          />
        )}
      </Box>
    </Box>
  );
}

/** The key of the row holding the message with this stream id, or null. */
function findEventRow(rows: readonly ListRow[], event: string | null): string | null {
  if (event === null) return null;
  const row = rows.find((r) => r.kind === "message" && r.message.id === event);
  return row?.key ?? null;
}
