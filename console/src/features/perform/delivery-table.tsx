import { Fragment, useId, useState, type ReactNode } from "react";
import {
  Alert,
  Button,
  CircularProgress,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from "@mui/material";
import { describeDeliveryFate, inboxOfDelivery } from "../../lib/delivery-fate.ts";
import { redeliverTrigger } from "../../lib/trigger-client.ts";
import {
  canRedeliver,
  type TriggerDelivery,
  type TriggerRecord,
} from "../../lib/trigger-record.ts";
import { AttemptsTimeline } from "./attempts-timeline.tsx";
import { Moment } from "../../components/moment/index.ts";

type Props = { record: TriggerRecord; onRedelivered: () => void };

/** One row per recipient inbox; a failed or retrying one can be sent again at once. */
export function DeliveryTable({ record, onRedelivered }: Props) {
  const headingId = useId();
  const [busy, setBusy] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const toggle = (inbox: string) =>
    setOpen((shown) => {
      const next = new Set(shown);
      if (!next.delete(inbox)) next.add(inbox);
      return next;
    });

  const redeliver = async (delivery: TriggerDelivery) => {
    setBusy(delivery.inbox);
    setProblem(null);
    const answer = await redeliverTrigger(record.id, delivery.inbox);
    setBusy(null);
    if (answer.ok) onRedelivered();
    else setProblem(`Redeliver to ${delivery.inbox} failed: ${answer.reason}`);
  };

  return (
    <>
      <Typography variant="subtitle2" component="h3" id={headingId}>
        Deliveries
      </Typography>
      {problem && <Alert severity="error">{problem}</Alert>}
      {/* Scrolls sideways on a narrow screen instead of widening the page. */}
      <TableContainer sx={{ overflowX: "auto" }}>
        <Table size="small" aria-labelledby={headingId}>
          <TableHead>
            <TableRow>
              <TableCell>Inbox</TableCell>
              <TableCell>Delivery</TableCell>
              <TableCell>Status</TableCell>
              <TableCell>Attempts</TableCell>
              <TableCell>Last error</TableCell>
              <TableCell>When</TableCell>
              <TableCell />
            </TableRow>
          </TableHead>
          <TableBody>
            {record.deliveries.map((delivery) => {
              const shown = open.has(delivery.inbox);
              const timelineId = `${headingId}-${record.deliveries.indexOf(delivery)}`;
              return (
                <Fragment key={delivery.inbox}>
                  <TableRow>
                    <TableCell sx={{ overflowWrap: "anywhere", minWidth: 160 }}>
                      {inboxOfDelivery(delivery) ??
                        `none found: ${delivery.inbox} could not be read`}
                    </TableCell>
                    <TableCell>{describeDeliveryFate(delivery)}</TableCell>
                    <TableCell>{delivery.status ?? "—"}</TableCell>
                    <TableCell>{delivery.attempts}</TableCell>
                    <TableCell>{delivery.lastError ?? "—"}</TableCell>
                    <TableCell>{describeWhen(delivery)}</TableCell>
                    <TableCell sx={{ whiteSpace: "nowrap" }}>
                      <Button
                        size="small"
                        aria-expanded={shown}
                        aria-controls={shown ? timelineId : undefined}
                        onClick={() => toggle(delivery.inbox)}
                      >
                        {shown ? "Hide attempts" : "Show attempts"}
                      </Button>
                      {canRedeliver(delivery) && (
                        <Button
                          size="small"
                          disabled={busy !== null}
                          onClick={() => void redeliver(delivery)}
                        >
                          Redeliver
                        </Button>
                      )}
                      {/* Beside the button, not in it: its name stays "Redeliver". */}
                      {busy === delivery.inbox && (
                        <CircularProgress size={14} aria-label="Redelivering" />
                      )}
                    </TableCell>
                  </TableRow>
                  {shown && (
                    <TableRow id={timelineId}>
                      <TableCell colSpan={7} sx={{ overflowX: "auto" }}>
                        <AttemptsTimeline delivery={delivery} />
                      </TableCell>
                    </TableRow>
                  )}
                </Fragment>
              );
            })}
          </TableBody>
        </Table>
      </TableContainer>
    </>
  );
}

function describeWhen(delivery: TriggerDelivery): ReactNode {
  if (delivery.deliveredAt)
    return (
      <>
        delivered <Moment at={delivery.deliveredAt} />
      </>
    );
  if (delivery.nextAttemptAt)
    return (
      <>
        next attempt <Moment at={delivery.nextAttemptAt} />
      </>
    );
  return "—";
}
