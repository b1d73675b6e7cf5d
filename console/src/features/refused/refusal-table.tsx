import { Box, Chip, Link, Stack, Typography } from "@mui/material";
import { Link as RouterLink } from "react-router";
import { ColumnTable, type Column } from "../../components/column-table/column-table.tsx";
import { Moment } from "../../components/moment/index.ts";
import {
  reasonLabel,
  refusalActivity,
  refusalHost,
  type RefusalEntry,
} from "../../lib/refusal-client.ts";

const noWrap = { whiteSpace: "nowrap" } as const;

/** How many of the rows shown were refused for each reason. */
export function ReasonCounts({ rows }: { rows: RefusalEntry[] }) {
  const counts = new Map<string, number>();
  for (const row of rows) counts.set(row.reason, (counts.get(row.reason) ?? 0) + 1);
  return (
    <Stack
      component="ul"
      aria-label="Refusals per reason"
      direction="row"
      useFlexGap
      spacing={1}
      sx={{ listStyle: "none", p: 0, m: 0, flexWrap: "wrap" }}
    >
      {[...counts].map(([reason, count]) => (
        <li key={reason}>
          <Chip size="small" label={`${reasonLabel(reason)}: ${count}`} />
        </li>
      ))}
    </Stack>
  );
}

const COLUMNS: Column<RefusalEntry>[] = [
  { title: "Time", value: (row) => <Moment at={row.at} />, cellSx: noWrap },
  { title: "Host", value: (row) => <RefusalHost row={row} /> },
  {
    title: "Reason",
    value: (row) => (
      <>
        <div>{row.detail}</div>
        <Typography variant="caption" color="text.secondary">
          {reasonLabel(row.reason)}
        </Typography>
      </>
    ),
  },
  { title: "Key id", value: (row) => row.keyId ?? "none", cellSx: { wordBreak: "break-all" } },
  { title: "Status", value: (row) => row.status },
  {
    title: "Activity",
    value: refusalActivity,
    cellSx: { wordBreak: "break-all" },
  },
  {
    title: "Body",
    value: (row) =>
      row.body === null ? (
        "not read"
      ) : (
        <details>
          <summary>Show body</summary>
          <Box
            component="pre"
            sx={{ whiteSpace: "pre-wrap", wordBreak: "break-all", maxWidth: 480 }}
          >
            {row.body}
          </Box>
        </details>
      ),
  },
];

export function RefusalTable({ rows }: { rows: RefusalEntry[] }) {
  return (
    <ColumnTable label="Refused requests" rows={rows} columns={COLUMNS} rowKey={(row) => row.id} />
  );
}

/** The host a refusal came from, linked to its page when it has one. */
function RefusalHost({ row }: { row: RefusalEntry }) {
  const host = refusalHost(row);
  return (
    <>
      {/* An address (no key, no actor) has no host page. */}
      {(row.keyHost ?? row.actorHost) ? (
        <Link component={RouterLink} to={`/deliveries/${encodeURIComponent(host)}`}>
          {host}
        </Link>
      ) : (
        host
      )}
      {/* Without a key, nothing proves the actor's host: anyone can write it in a body. */}
      {row.keyHost === null && row.actorHost !== null && (
        <Typography variant="caption" color="text.secondary" component="div">
          as its unsigned body claims; sent from {row.client}
        </Typography>
      )}
    </>
  );
}
