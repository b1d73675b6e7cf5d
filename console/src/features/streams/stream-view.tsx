import { useMemo, useRef } from "react";
import { Box, Typography } from "@mui/material";
import { useActorHandles, useLearnHandles } from "../../lib/actor-handles.ts";
import { useUserStore } from "../../lib/user-store.ts";
import { ConnectionStatusRegion } from "./connection-status.tsx";
import { buildRows } from "./list-rows.ts";
import { MessageList } from "./message-list.tsx";
import { StreamControls } from "./stream-controls.tsx";
import { LinkedEventNotice, SearchNotices } from "./stream-notices.tsx";
import { StreamSidePanel } from "./stream-side-panel.tsx";
import { useEventFocus } from "./use-event-focus.ts";
import { useLiveMessages, type StreamSource } from "./use-live-messages.ts";
import { useStreamActions } from "./use-stream-actions.ts";
import { useStreamFiltering } from "./use-stream-filtering.ts";
import { useStreamShortcuts } from "./use-stream-shortcuts.ts";
import { useViewPreferences } from "./view-preferences.ts";

/** One stream, or "all" of them merged: list, search, filter, pause, export, reset. */
export function StreamView({ source }: { source: StreamSource }) {
  const live = useLiveMessages(source);
  const view = useStreamFiltering(source, live);
  const { pause, server, shown } = view;
  const { compact, newestFirst } = useViewPreferences();
  const rows = useMemo(
    () => buildRows(shown, live.markers, newestFirst),
    [shown, live.markers, newestFirst],
  );
  const knownHandles = useKnownHandles();
  const { event, focusKey, linked } = useEventFocus(source, rows, live.messages);
  const actions = useStreamActions(source, pause, live.messages, shown, newestFirst);
  const searchRef = useRef<HTMLInputElement>(null);
  const { setSearch } = view;
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
        search={view.search}
        onSearch={setSearch}
        searchRef={searchRef}
        shownCount={shown.length}
        heldCount={live.messages.length}
        ofCount={view.ofCount}
        from={view.from}
        to={view.to}
        onFrom={view.setFrom}
        onTo={view.setTo}
        searching={view.searching}
        activityTypes={live.activityTypes}
        chosen={view.chosen}
        onChoose={view.setChosen}
        onReset={actions.reset}
      >
        <ConnectionStatusRegion source={source} />
        <StreamControls
          paused={pause.paused}
          newCount={pause.newCount}
          onTogglePause={pause.toggle}
          onShowNew={actions.showNew}
          onExport={actions.onExport}
        />
      </StreamSidePanel>
      <Box sx={{ flexGrow: 1, minWidth: 0 }}>
        <SearchNotices
          source={source}
          storageNote={live.storageNote}
          server={server}
          filtered={view.filtered}
        />
        {event !== null && focusKey === null && (
          <LinkedEventNotice
            event={event}
            linked={linked}
            compact={compact}
            knownHandles={knownHandles}
          />
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
            reveal={actions.reveal}
            newestFirst={newestFirst}
            startAtNewest={event === null}
          />
        )}
      </Box>
    </Box>
  );
}

/** The handles known for actors; the account's own actors are learnt too (by their ids). */
function useKnownHandles() {
  const knownHandles = useActorHandles((state) => state.handles);
  const accountActors = useUserStore((state) => state.actors);
  useLearnHandles(useMemo(() => accountActors.map((actor) => actor.id), [accountActors]));
  return knownHandles;
}
