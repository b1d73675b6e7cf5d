import { Alert, CircularProgress, Link, Stack, Typography } from "@mui/material";
import { Link as RouterLink } from "react-router";
import { Moment } from "../../components/moment/index.ts";
import { findCallByTrigger, usePerformHistory } from "../../lib/perform-history-store.ts";
import { summarizeTrigger, type TriggerRecord } from "../../lib/trigger-record.ts";
import { DeliveryTable } from "./delivery-table.tsx";
import { describeOutcome } from "./call-text.ts";
import { useTriggerRecord } from "./use-trigger-record.ts";

/** A recorded call, live: its state, one row per recipient inbox, the messages it caused. */
export function TriggerView({ id }: { id: string }) {
  const { record, problem, watching, refresh } = useTriggerRecord(id);
  const remembered = usePerformHistory((state) => findCallByTrigger(state.calls, id));

  return (
    <Stack spacing={1}>
      <Typography>
        {record ? (
          <>
            {record.method} as {record.actor}, received <Moment at={record.receivedAt} />
          </>
        ) : remembered ? (
          <>
            {remembered.method} as {remembered.body.actor}, sent <Moment at={remembered.at} />
          </>
        ) : (
          `Call ${id}`
        )}
      </Typography>
      <Stack direction="row" spacing={1} sx={{ alignItems: "center" }}>
        {watching && <CircularProgress size={16} aria-label="Watching the call" />}
        <Typography data-testid="trigger-state">
          {record
            ? `State: ${summarizeTrigger(record)}`
            : remembered
              ? `Last seen: ${describeOutcome(remembered.outcome)}`
              : "Asking the server about this call…"}
          {watching && record && " (watching for changes)"}
        </Typography>
      </Stack>
      {record?.error && <Alert severity="error">{record.error}</Alert>}
      {problem && (
        <Alert severity="warning">
          Could not read call {id}: {problem}
          {watching && "; asking again"}
        </Alert>
      )}
      {record && <RecordDetails record={record} onRedelivered={refresh} />}
    </Stack>
  );
}

function RecordDetails({
  record,
  onRedelivered,
}: {
  record: TriggerRecord;
  onRedelivered: () => void;
}) {
  const unfinished = record.state === "queued" || record.state === "running";
  return (
    <>
      {record.deliveries.length > 0 ? (
        <DeliveryTable record={record} onRedelivered={onRedelivered} />
      ) : (
        <Typography>
          {unfinished ? "No deliveries yet." : "No deliveries: the call named no recipient inbox."}
        </Typography>
      )}
      {record.events.length > 0 && (
        <Typography component="div">
          Messages it caused:{" "}
          {record.events.map((event, index) => (
            <span key={`${event.stream}-${event.id}`}>
              {index > 0 && ", "}
              <Link component={RouterLink} to={`/stream/${event.stream}?event=${event.id}`}>
                {event.stream === "outgoing" ? "Outgoing" : "Error"} message {event.id}
              </Link>
            </span>
          ))}
        </Typography>
      )}
    </>
  );
}
