import { Link, Stack, TableCell, TableRow, Typography } from "@mui/material";
import { Link as RouterLink } from "react-router";
import { HeadedTable } from "../../components/headed-table/headed-table.tsx";
import { Moment } from "../../components/moment/index.ts";
import { reasonLabel } from "../../lib/refusal-client.ts";
import { useHostRefusals } from "./use-host-refusals.ts";

const REFUSALS_SHOWN = 10;

/** The host's newest refusals; the rest on "Refused", filtered by the host. */
export function HostRefusals({ host, round }: { host: string; round: number }) {
  const { rows, more, problem } = useHostRefusals(host, REFUSALS_SHOWN, round);
  return (
    <Stack spacing={1} component="section" aria-label="Its refusals">
      <Typography variant="h6" component="h2">
        Its refusals
      </Typography>
      {problem && <Typography>Could not read its refusals: {problem}.</Typography>}
      {rows && (
        <HeadedTable label="Newest refusals" titles={["Time", "Reason", "Status", "Activity"]}>
          {rows.map((row) => (
            <TableRow key={row.id}>
              <TableCell sx={{ whiteSpace: "nowrap" }}>
                <Moment at={row.at} />
              </TableCell>
              <TableCell>
                {reasonLabel(row.reason)}: {row.detail}
              </TableCell>
              <TableCell>{row.status}</TableCell>
              <TableCell sx={{ wordBreak: "break-all" }}>
                {row.activityType ?? ""} {row.activityId ?? ""}
              </TableCell>
            </TableRow>
          ))}
        </HeadedTable>
      )}
      {more && (
        <Typography>
          <Link component={RouterLink} to={`/refused?host=${encodeURIComponent(host)}`}>
            All refusals from {host}
          </Link>
        </Typography>
      )}
    </Stack>
  );
}
