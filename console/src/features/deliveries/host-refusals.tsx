import { Link, Stack, Typography } from "@mui/material";
import { Link as RouterLink } from "react-router";
import { ColumnTable, type Column } from "../../components/column-table/column-table.tsx";
import { Moment } from "../../components/moment/index.ts";
import { reasonLabel, refusalActivity, type RefusalEntry } from "../../lib/refusal-client.ts";
import { useHostRefusals } from "./use-host-refusals.ts";

const REFUSALS_SHOWN = 10;

const COLUMNS: Column<RefusalEntry>[] = [
  { title: "Time", value: (row) => <Moment at={row.at} />, cellSx: { whiteSpace: "nowrap" } },
  { title: "Reason", value: (row) => `${reasonLabel(row.reason)}: ${row.detail}` },
  { title: "Status", value: (row) => row.status },
  {
    title: "Activity",
    value: refusalActivity,
    cellSx: { wordBreak: "break-all" },
  },
];

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
        <ColumnTable
          label="Newest refusals"
          rows={rows}
          columns={COLUMNS}
          rowKey={(row) => row.id}
        />
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
