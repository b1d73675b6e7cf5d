import { memo, useMemo, useState } from "react";
import { Link as RouterLink } from "react-router";
import { Box, Button, Chip, Link, Typography, type SxProps, type Theme } from "@mui/material";
import { JsonTree } from "../../components/json-tree/index.ts";
import { Moment } from "../../components/moment/index.ts";
import type { StreamMessage } from "../../lib/streams/stream-store.ts";
import { withParsedBody } from "./error-event.ts";
import { summarise, type KnownHandles, type MessageSummary } from "./message-summary.ts";
import { STREAM_LABELS } from "./stream-labels.ts";
import { useOpenInPerform } from "./use-open-in-perform.ts";
import { useTriggerDelivery } from "./use-trigger-delivery.ts";

type MessageCardProps = {
  message: StreamMessage;
  knownHandles: KnownHandles;
  /** One line per message; its tree only once expanded. */
  compact: boolean;
  /** Compact only: whether this message's tree is open. */
  expanded?: boolean;
  /** Compact only: opens or closes the tree of the message with this key. */
  onToggle?: (key: string) => void;
  /** The list's key for it (`stream:seq`), on the card for tests and the bench to find it by. */
  rowKey?: string;
  showStream: boolean;
  /** The message a link pointed at: outlined, and aria-current for assistive technology. */
  focused?: boolean;
};

/** One message: its summary line, "Show call", "Open in Perform" and "Copy JSON", its tree. */
export const MessageCard = memo(function MessageCard({
  message,
  knownHandles,
  compact,
  expanded = false,
  onToggle,
  rowKey,
  showStream,
  focused = false,
}: MessageCardProps) {
  const summary = summarise(message, knownHandles);
  // Outgoing messages carry no deliveries of their own; the record of the call that sent them has.
  const recorded = useTriggerDelivery(
    message.stream === "outgoing" && summary.delivery === null ? summary.triggerId : null,
  );
  const delivery = summary.delivery ?? recorded;
  const classes = ["stream-message"];
  if (compact) classes.push("stream-message-compact");
  if (focused) classes.push("stream-message-focused");
  const line = (
    <SummaryParts
      summary={summary}
      receivedAt={message.receivedAt}
      delivery={delivery}
      stream={showStream ? message.stream : null}
    />
  );
  return (
    <div
      className={classes.join(" ")}
      data-testid="stream-message"
      data-message-key={rowKey}
      aria-current={focused ? "true" : undefined}
    >
      <Box
        data-testid="message-summary"
        sx={{
          display: "flex",
          alignItems: "center",
          gap: compact ? 1 : 1.5,
          mb: compact && !expanded ? 0 : 1,
          flexWrap: compact ? "nowrap" : "wrap",
        }}
      >
        {compact ? (
          // A native button: focusable, and Enter or Space opens and closes the tree.
          <button
            type="button"
            className="stream-message-toggle"
            aria-expanded={expanded}
            onClick={() => rowKey && onToggle?.(rowKey)}
          >
            {line}
          </button>
        ) : (
          <>
            {line}
            <Box sx={{ flexGrow: 1 }} />
          </>
        )}
        <MessageActions message={message} triggerId={summary.triggerId} compact={compact} />
      </Box>
      {(!compact || expanded) && <MessageTree data={message.data} />}
    </div>
  );
});

/** The message's tree, an error's failed body shown as JSON (the data itself stays as it came). */
function MessageTree({ data }: { data: unknown }) {
  const shown = useMemo(() => withParsedBody(data), [data]);
  return <JsonTree data={shown} />;
}

function SummaryParts({
  summary,
  receivedAt,
  delivery,
  stream,
}: {
  summary: MessageSummary;
  receivedAt: number | null;
  delivery: string | null;
  /** The stream's label goes first on "All". */
  stream: StreamMessage["stream"] | null;
}) {
  return (
    <>
      {stream && <Chip component="span" size="small" label={STREAM_LABELS[stream]} />}
      <Typography component="span" variant="body2" sx={{ fontFamily: "monospace" }}>
        {receivedAt === null ? summary.time : <Moment at={receivedAt} />}
      </Typography>
      <Typography component="span" variant="body2" sx={{ fontWeight: 600 }}>
        {summary.type}
      </Typography>
      {summary.problem && (
        <Typography component="span" variant="body2" data-testid="summary-problem">
          {`→ ${summary.problem}`}
        </Typography>
      )}
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
    </>
  );
}

function MessageActions({
  message,
  triggerId,
  compact,
}: {
  message: StreamMessage;
  triggerId: string | null;
  compact: boolean;
}) {
  const perform = useOpenInPerform(message);
  // Compact: buttons no taller than the text, so 20 and more lines fit on a 900 px screen.
  const buttonSx = compact ? { py: 0, minHeight: 0 } : undefined;
  return (
    <Box sx={{ display: "flex", alignItems: "center", gap: 1, flexShrink: 0 }}>
      {triggerId && (
        <Link
          component={RouterLink}
          to={`/perform?call=${encodeURIComponent(triggerId)}`}
          variant="body2"
        >
          Show call
        </Link>
      )}
      {(perform.opening || perform.problem) && (
        <Typography component="span" variant="body2" role="status">
          {perform.opening ? "Fetching the call…" : perform.problem}
        </Typography>
      )}
      <Button size="small" sx={buttonSx} disabled={perform.opening} onClick={perform.open}>
        Open in Perform
      </Button>
      <CopyButton data={message.data} sx={buttonSx} />
    </Box>
  );
}

function CopyButton({ data, sx }: { data: unknown; sx?: SxProps<Theme> }) {
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
      <Button size="small" sx={sx} onClick={() => void copy()}>
        Copy JSON
      </Button>
    </>
  );
}
