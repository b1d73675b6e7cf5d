import { memo, useState } from "react";
import { Link as RouterLink } from "react-router";
import { Box, Button, Chip, Link, Typography } from "@mui/material";
import { JsonTree } from "../../components/json-tree/index.ts";
import type { StreamMessage } from "../../lib/stream-store.ts";
import { summarise, type KnownHandles } from "./message-summary.ts";
import { STREAM_LABELS } from "./stream-labels.ts";
import { useTriggerDelivery } from "./use-trigger-delivery.ts";

type MessageCardProps = {
  message: StreamMessage;
  knownHandles: KnownHandles;
  compact: boolean;
  showStream: boolean;
  /** The message a link pointed at: outlined, and aria-current for assistive technology. */
  focused?: boolean;
};

/** One message: its summary line, "Show call" and "Copy JSON", then its tree. */
export const MessageCard = memo(function MessageCard({
  message,
  knownHandles,
  compact,
  showStream,
  focused = false,
}: MessageCardProps) {
  const summary = summarise(message, knownHandles);
  // Outgoing messages carry no deliveries of their own; the record of the call that sent them has.
  const recorded = useTriggerDelivery(
    message.stream === "outgoing" && summary.delivery === null ? summary.triggerId : null,
  );
  const delivery = summary.delivery ?? recorded;
  return (
    <div
      className={focused ? "stream-message stream-message-focused" : "stream-message"}
      data-testid="stream-message"
      aria-current={focused ? "true" : undefined}
    >
      <Box
        data-testid="message-summary"
        sx={{ display: "flex", alignItems: "center", gap: 1.5, mb: 1, flexWrap: "wrap" }}
      >
        {showStream && <Chip size="small" label={STREAM_LABELS[message.stream]} />}
        <Typography component="span" variant="body2" sx={{ fontFamily: "monospace" }}>
          {summary.time}
        </Typography>
        <Typography component="span" variant="body2" sx={{ fontWeight: 600 }}>
          {summary.type}
        </Typography>
        {summary.object && (
          <Typography component="span" variant="body2" data-testid="summary-object">
            {summary.object}
          </Typography>
        )}
        {summary.who && (
          <Typography component="span" variant="body2" sx={{ color: "text.secondary" }}>
            {summary.who}
          </Typography>
        )}
        {delivery && (
          <Typography component="span" variant="body2" data-testid="delivery-state">
            {delivery}
          </Typography>
        )}
        <Box sx={{ flexGrow: 1 }} />
        {summary.triggerId && (
          <Link
            component={RouterLink}
            to={`/perform?call=${encodeURIComponent(summary.triggerId)}`}
            variant="body2"
          >
            Show call
          </Link>
        )}
        <CopyButton data={message.data} />
      </Box>
      <JsonTree data={message.data} collapseBelowDepth={compact ? 1 : undefined} />
    </div>
  );
});

function CopyButton({ data }: { data: unknown }) {
  const [outcome, setOutcome] = useState<string | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(JSON.stringify(data, null, 2));
      setOutcome("Copied");
    } catch (error) {
      setOutcome(`Could not copy: ${error instanceof Error ? error.message : String(error)}`);
    }
    setTimeout(() => setOutcome(null), 2000);
  };
  return (
    <>
      {outcome && (
        <Typography component="span" variant="body2" role="status">
          {outcome}
        </Typography>
      )}
      <Button size="small" onClick={() => void copy()}>
        Copy JSON
      </Button>
    </>
  );
}
