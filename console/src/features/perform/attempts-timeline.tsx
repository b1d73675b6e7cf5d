import { Typography } from "@mui/material";
import { AttemptList } from "../../components/attempt-list/attempt-list.tsx";
import type { TriggerDelivery } from "../../lib/trigger-record.ts";

/**
 * One delivery's attempts, oldest first (docs/console-guide.md#perform: a delivery's row in
 * Perform's Result opens its attempts timeline): time, status, duration, error, the start of the
 * answer; below 600 px a block per attempt.
 */
export function AttemptsTimeline({ delivery }: { delivery: TriggerDelivery }) {
  const log = delivery.attemptLog;
  if (!log) {
    return <Typography variant="body2">The server does not list each attempt.</Typography>;
  }
  if (log.length === 0) {
    return <Typography variant="body2">No attempt was made yet.</Typography>;
  }
  return (
    <AttemptList label={`Attempts to ${delivery.inbox}`} attempts={log} numbered scroll={false} />
  );
}
