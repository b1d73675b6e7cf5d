import { memo, useLayoutEffect, useRef, useState } from "react";
import { Paper } from "@mui/material";
import { measureElement, useWindowVirtualizer, type Virtualizer } from "@tanstack/react-virtual";
import { JsonTree } from "../../components/json-tree/index.ts";
import type { StreamMessage } from "../../lib/stream-store.ts";

const MESSAGE_ESTIMATE_PX = 240;
const GAP_PX = 16;

// An element without layout (jsdom) measures 0 px; keep the estimate rather than collapse it.
function measureWithFallback(element: Element, entry: ResizeObserverEntry | undefined, instance: Virtualizer<Window, Element>) {
  return measureElement(element, entry, instance) || MESSAGE_ESTIMATE_PX;
}

/**
 * Newest first, virtualised against the page scroll: only the messages on screen mount their
 * JSON trees, so 10,000 held messages cost about what 10 do.
 */
export function MessageList({ messages }: { messages: readonly StreamMessage[] }) {
  const listRef = useRef<HTMLDivElement>(null);
  const [scrollMargin, setScrollMargin] = useState(0);
  useLayoutEffect(() => {
    const top = listRef.current?.getBoundingClientRect().top ?? 0;
    setScrollMargin(top + window.scrollY);
  }, []);
  const count = messages.length;
  const messageAt = (index: number) => messages[count - 1 - index]!;
  const virtualizer = useWindowVirtualizer({
    count,
    estimateSize: () => MESSAGE_ESTIMATE_PX,
    getItemKey: (index) => messageAt(index).seq,
    gap: GAP_PX,
    overscan: 3,
    scrollMargin,
    measureElement: measureWithFallback,
  });
  return (
    <div ref={listRef} style={{ height: virtualizer.getTotalSize(), position: "relative" }}>
      {virtualizer.getVirtualItems().map((item) => (
        <div
          key={item.key}
          data-index={item.index}
          ref={virtualizer.measureElement}
          style={{
            position: "absolute",
            top: 0,
            left: 0,
            width: "100%",
            transform: `translateY(${item.start - scrollMargin}px)`,
          }}
        >
          <MessageCard data={messageAt(item.index).data} />
        </div>
      ))}
    </div>
  );
}

const MessageCard = memo(function MessageCard({ data }: { data: unknown }) {
  return (
    <Paper variant="outlined" sx={{ p: 1.5 }} data-testid="stream-message">
      <JsonTree data={data} />
    </Paper>
  );
});
