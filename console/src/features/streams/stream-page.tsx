import { useCallback } from "react";
import { Alert, Box, Typography } from "@mui/material";
import { useParams } from "react-router";
import {
  getStreamStore,
  isStreamType,
  useStreamStore,
  type StreamType,
} from "../../lib/stream-store.ts";
import { MessageList } from "./message-list.tsx";
import { StreamSidePanel } from "./stream-side-panel.tsx";
import { useTypeFilter } from "./use-type-filter.ts";

/** /stream/:streamType: the messages of one account stream, oldest first, with reset and filter. */
export function StreamPage() {
  const { streamType } = useParams();
  if (!isStreamType(streamType)) return <Typography>You should not be here</Typography>;
  // Keyed so switching streams starts with a fresh filter.
  return <StreamView key={streamType} type={streamType} />;
}

function StreamView({ type }: { type: StreamType }) {
  const messages = useStreamStore(type, (state) => state.messages);
  const activityTypes = useStreamStore(type, (state) => state.activityTypes);
  const storageNote = useStreamStore(type, (state) => state.storageNote);
  const { chosen, setChosen, shown } = useTypeFilter(messages, activityTypes);
  const reset = useCallback(() => getStreamStore(type).getState().reset(), [type]);
  return (
    <Box sx={{ display: "flex", gap: 2, alignItems: "flex-start" }}>
      <Box sx={{ flexGrow: 1, minWidth: 0 }}>
        {storageNote && (
          <Alert severity="warning" sx={{ mb: 2 }}>
            {storageNote}
          </Alert>
        )}
        {shown.length === 0 ? (
          <Typography>Nothing to display</Typography>
        ) : (
          <MessageList messages={shown} />
        )}
      </Box>
      <StreamSidePanel
        activityTypes={activityTypes}
        chosen={chosen}
        onChoose={setChosen}
        onReset={reset}
      />
    </Box>
  );
}
