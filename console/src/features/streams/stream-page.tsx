import { Typography } from "@mui/material";
import { useParams } from "react-router";
import { isStreamType } from "../../lib/streams/stream-store.ts";
import { StreamView } from "./stream-view.tsx";

/** /stream/:streamType: the messages of one account stream. */
export function StreamPage() {
  const { streamType } = useParams();
  if (!isStreamType(streamType)) return <Typography>You should not be here</Typography>;
  // Keyed so switching streams starts with a fresh filter, search and pause.
  return <StreamView key={streamType} source={streamType} />;
}

/** /stream/all: the three streams merged in arrival order. */
export function AllStreamsPage() {
  return <StreamView source="all" />;
}
