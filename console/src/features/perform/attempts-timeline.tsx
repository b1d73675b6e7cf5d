import { Box, TableCell, TableRow, Typography } from "@mui/material";
import { HeadedTable } from "../../components/headed-table/headed-table.tsx";
import type { TriggerDelivery } from "../../lib/trigger-record.ts";
import { Moment } from "../../components/moment/index.ts";

const noWrap = { whiteSpace: "nowrap" } as const;

/**
 * One delivery's attempts, oldest first (workbench.md "One host": a delivery's row in Perform's
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
        <TableRow key={index}>
          <TableCell>{index + 1}</TableCell>
          <TableCell sx={noWrap}>
            <Moment at={attempt.at} />
          </TableCell>
          <TableCell>{attempt.status ?? "no answer"}</TableCell>
          <TableCell>{attempt.durationMs}</TableCell>
          <TableCell sx={{ wordBreak: "break-word" }}>{attempt.error ?? ""}</TableCell>
          <TableCell>
            {attempt.response && (
              <Box component="code" sx={{ whiteSpace: "pre-wrap", wordBreak: "break-all" }}>
                {attempt.response}
              </Box>
            )}
          </TableCell>
        </TableRow>
      ))}
    </HeadedTable>
  );
}
