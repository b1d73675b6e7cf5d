import { Box, TableCell, TableRow } from "@mui/material";
import type { DeliveryAttempt } from "../../lib/wire-types.ts";
import { Moment } from "../moment/index.ts";

type Props = {
  attempt: DeliveryAttempt;
  /** Its place in a delivery's timeline (a "#" column first), when the table has one. */
  number?: number;
  /** Shows the inbox after the time (a host's attempts go to several inboxes). */
  withInbox?: boolean;
};

/** One delivery attempt: when, where, the status or "no answer", how long, the error, the answer. */
export function AttemptRow({ attempt, number, withInbox = false }: Props) {
  return (
    <TableRow>
      {number !== undefined && <TableCell>{number}</TableCell>}
      <TableCell sx={{ whiteSpace: "nowrap" }}>
        <Moment at={attempt.at} />
      </TableCell>
      {withInbox && <TableCell sx={{ wordBreak: "break-all" }}>{attempt.inbox}</TableCell>}
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
  );
}
