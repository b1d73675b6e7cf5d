import { useId } from "react";
import { Box, Button, CircularProgress, Link, Stack, Typography } from "@mui/material";
import { Link as RouterLink } from "react-router";
import { ColumnTable, type Column } from "../../components/column-table/column-table.tsx";
import type { HostFailedDelivery, HostHealth } from "../../lib/host-health.ts";
import { describeWork, type HostWork } from "./use-host-actions.ts";

type Props = {
  host: HostHealth;
  working: HostWork | null;
  onRedeliver: (host: string, delivery: HostFailedDelivery) => void;
};

const wrapAnywhere = { overflowWrap: "anywhere" } as const;

/** The deliveries to one host that gave up: each can go back in the queue or show its call. */
export function FailedDeliveries({ host, working, onRedeliver }: Props) {
  const headingId = useId();
  const label = `Failed deliveries to ${host.host}`;
  const columns: Column<HostFailedDelivery>[] = [
    { title: "Inbox", value: (row) => row.inbox, cellSx: { ...wrapAnywhere, minWidth: 160 } },
    { title: "Status", value: (row) => row.status ?? "—" },
    { title: "Attempts", value: (row) => row.attempts },
    {
      title: "Last error",
      value: (row) => row.lastError ?? "—",
      cellSx: { ...wrapAnywhere, minWidth: 140 },
    },
    {
      // No header, as the buttons need none: below 600 px they follow the fields.
      title: "",
      value: (row) => (
        <DeliveryActions
          host={host.host}
          delivery={row}
          working={working}
          onRedeliver={onRedeliver}
        />
      ),
    },
  ];
  return (
    <Box component="section" aria-labelledby={headingId}>
      <Typography variant="subtitle1" component="h2" id={headingId}>
        {label}
      </Typography>
      <ColumnTable
        label={label}
        rows={host.failed}
        columns={columns}
        rowKey={(row, index) => `${row.triggerId ?? ""} ${row.inbox} ${index}`}
      />
    </Box>
  );
}

type ActionsProps = Omit<Props, "host"> & { host: string; delivery: HostFailedDelivery };

function DeliveryActions({ host, delivery, working, onRedeliver }: ActionsProps) {
  const { triggerId } = delivery;
  // A delivery no call caused (an automatic Accept) is sent again with the host's "Retry now".
  if (triggerId === null) return <Typography variant="body2">no call</Typography>;
  const busyHere =
    working?.action === "redeliver" && working.host === host && working.inbox === delivery.inbox;
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: "center", whiteSpace: "nowrap" }}>
      <Button size="small" disabled={working !== null} onClick={() => onRedeliver(host, delivery)}>
        Redeliver
      </Button>
      <Link component={RouterLink} to={`/perform?call=${encodeURIComponent(triggerId)}`}>
        Show call
      </Link>
      {busyHere && <CircularProgress size={14} aria-label={describeWork(working)} />}
    </Stack>
  );
}
