import { Typography } from "@mui/material";
import { AttemptRow } from "../../components/attempt-row/attempt-row.tsx";
import { HeadedTable } from "../../components/headed-table/headed-table.tsx";
import type { TriggerDelivery } from "../../lib/trigger-record.ts";

/**
 * One delivery's attempts, oldest first (docs/console-guide.md#one-host: a delivery's row in Perform's
 * Result opens its attempts timeline): time, status, duration, error, the start of the answer.
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
    <HeadedTable
      label={`Attempts to ${delivery.inbox}`}
      titles={["#", "Time", "Status", "Duration (ms)", "Error", "Answer"]}
      scroll={false}
    >
      {log.map((attempt, index) => (
        <AttemptRow key={index} attempt={attempt} number={index + 1} />
      ))}
    </HeadedTable>
  );
}
