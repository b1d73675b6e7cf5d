import { useCallback, useRef, useState } from "react";
import { getConnectionTracker } from "../../lib/streams/stream-connection.ts";
import {
  getStreamStore,
  STREAM_TYPES,
  type StreamMessage,
} from "../../lib/streams/stream-store.ts";
import {
  downloadFile,
  exportContent,
  exportFileName,
  type ExportFormat,
} from "./export-messages.ts";
import { forgetStreamReach } from "./server-history.ts";
import type { StreamSource } from "./use-live-messages.ts";

type Pause = { forgetFrozen: () => void; resumeToNew: () => StreamMessage | undefined };

/** The stream's buttons: reset what is held, show the new messages, export what is listed. */
export function useStreamActions(
  source: StreamSource,
  pause: Pause,
  liveMessages: readonly StreamMessage[],
  shown: readonly StreamMessage[],
  newestFirst: boolean,
) {
  const liveRef = useRef(liveMessages);
  liveRef.current = liveMessages;
  const shownRef = useRef(shown);
  shownRef.current = shown;
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
  const onExport = useCallback(
    (format: ExportFormat) =>
      downloadFile(
        exportFileName(source, format, new Date()),
        exportContent(shownRef.current, format),
        format,
      ),
    [source],
  );
  return { reset, reveal, showNew, onExport };
}
