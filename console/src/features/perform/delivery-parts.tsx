import type { ReactNode } from "react";
import { Button, CircularProgress } from "@mui/material";
import { inboxOfDelivery } from "../../lib/delivery-fate.ts";
import { canRedeliver, type TriggerDelivery } from "../../lib/trigger-record.ts";
import { Moment } from "../../components/moment/index.ts";

/** What one delivery's row or card needs from the list: its attempts shown or not, and actions. */
export type DeliveryControls = {
  delivery: TriggerDelivery;
  /** Whether its attempts timeline is open, and the id of the element that shows it. */
  shown: boolean;
  timelineId: string;
  /** The inbox being sent again at once, if any (one at a time). */
  busy: string | null;
  onToggle: () => void;
  onRedeliver: () => void;
};

/** The inbox, or why none was found. */
export function describeInbox(delivery: TriggerDelivery): string {
  return inboxOfDelivery(delivery) ?? `none found: ${delivery.inbox} could not be read`;
}

export function describeWhen(delivery: TriggerDelivery): ReactNode {
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

/** "Show attempts" / "Hide attempts", and "Redeliver" on a failed or retrying delivery. */
export function DeliveryActions(props: DeliveryControls) {
  const { delivery, shown, timelineId, busy, onToggle, onRedeliver } = props;
  return (
    <>
      <Button
        size="small"
        sx={{ whiteSpace: "nowrap" }}
        aria-expanded={shown}
        aria-controls={shown ? timelineId : undefined}
        onClick={onToggle}
      >
        {shown ? "Hide attempts" : "Show attempts"}
      </Button>
      {canRedeliver(delivery) && (
        <Button size="small" disabled={busy !== null} onClick={onRedeliver}>
          Redeliver
        </Button>
      )}
      {/* Beside the button, not in it: its name stays "Redeliver". */}
      {busy === delivery.inbox && <CircularProgress size={14} aria-label="Redelivering" />}
    </>
  );
}
