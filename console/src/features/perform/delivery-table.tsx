import { Fragment, useId, useState } from "react";
import {
  Alert,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
  useMediaQuery,
} from "@mui/material";
import { useTheme } from "@mui/material/styles";
import { describeDeliveryFate } from "../../lib/delivery-fate.ts";
import { redeliverTrigger } from "../../lib/trigger-client.ts";
import type { TriggerDelivery, TriggerRecord } from "../../lib/trigger-record.ts";
import { AttemptsTimeline } from "./attempts-timeline.tsx";
import { DeliveryCards } from "./delivery-cards.tsx";
import {
  DeliveryActions,
  describeInbox,
  describeWhen,
  type DeliveryControls,
} from "./delivery-parts.tsx";

type Props = { record: TriggerRecord; onRedelivered: () => void };

/**
 * One row per recipient inbox (one card each below 600 px); a failed or retrying one can be sent
 * again at once.
 */
export function DeliveryTable({ record, onRedelivered }: Props) {
  const headingId = useId();
  const narrow = useMediaQuery(useTheme().breakpoints.down("sm"));
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

  const deliveries: DeliveryControls[] = record.deliveries.map((delivery, index) => ({
    delivery,
    shown: open.has(delivery.inbox),
    timelineId: `${headingId}-${index}`,
    busy,
    onToggle: () => toggle(delivery.inbox),
    onRedeliver: () => void redeliver(delivery),
  }));

  return (
    <>
      <Typography variant="subtitle2" component="h3" id={headingId}>
        Deliveries
      </Typography>
      {problem && <Alert severity="error">{problem}</Alert>}
      {narrow ? (
        <DeliveryCards labelledBy={headingId} deliveries={deliveries} />
      ) : (
        <WideDeliveryTable labelledBy={headingId} deliveries={deliveries} />
      )}
    </>
  );
}

function WideDeliveryTable({
  labelledBy,
  deliveries,
}: {
  labelledBy: string;
  deliveries: DeliveryControls[];
}) {
  return (
    // Scrolls sideways on a screen a little too narrow, instead of widening the page.
    <TableContainer sx={{ overflowX: "auto" }}>
      <Table size="small" aria-labelledby={labelledBy}>
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
          {deliveries.map((controls) => {
            const { delivery, shown, timelineId } = controls;
            return (
              <Fragment key={delivery.inbox}>
                <TableRow>
                  <TableCell sx={{ overflowWrap: "anywhere", minWidth: 160 }}>
                    {describeInbox(delivery)}
                  </TableCell>
                  <TableCell>{describeDeliveryFate(delivery)}</TableCell>
                  <TableCell>{delivery.status ?? "—"}</TableCell>
                  <TableCell>{delivery.attempts}</TableCell>
                  <TableCell>{delivery.lastError ?? "—"}</TableCell>
                  <TableCell>{describeWhen(delivery)}</TableCell>
                  <TableCell sx={{ whiteSpace: "nowrap" }}>
                    <DeliveryActions {...controls} />
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
  );
}
