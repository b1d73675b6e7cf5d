import { useId } from "react";
import {
  Box,
  Button,
  CircularProgress,
  Link,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from "@mui/material";
import { Link as RouterLink } from "react-router";
import type { HostFailedDelivery, HostHealth } from "../../lib/host-health.ts";
import { describeWork, type HostWork } from "./use-host-actions.ts";

type Props = {
  host: HostHealth;
  working: HostWork | null;
  onRedeliver: (host: string, delivery: HostFailedDelivery) => void;
};

/** The deliveries to one host that gave up: each can go back in the queue or show its call. */
export function FailedDeliveries({ host, working, onRedeliver }: Props) {
  const headingId = useId();
  return (
    <Box component="section" aria-labelledby={headingId}>
      <Typography variant="subtitle1" component="h2" id={headingId}>
        Failed deliveries to {host.host}
      </Typography>
      <TableContainer sx={{ overflowX: "auto" }}>
        <Table size="small" aria-labelledby={headingId}>
          <TableHead>
            <TableRow>
              <TableCell>Inbox</TableCell>
              <TableCell>Status</TableCell>
              <TableCell>Attempts</TableCell>
              <TableCell sx={{ whiteSpace: "nowrap" }}>Last error</TableCell>
              <TableCell />
            </TableRow>
          </TableHead>
          <TableBody>
            {host.failed.map((delivery, index) => (
              <TableRow key={`${delivery.triggerId ?? ""} ${delivery.inbox} ${index}`}>
                <TableCell sx={{ minWidth: 160, overflowWrap: "anywhere" }}>
                  {delivery.inbox}
                </TableCell>
                <TableCell>{delivery.status ?? "—"}</TableCell>
                <TableCell>{delivery.attempts}</TableCell>
                <TableCell sx={{ minWidth: 140, overflowWrap: "anywhere" }}>
                  {delivery.lastError ?? "—"}
                </TableCell>
                <TableCell>
                  <DeliveryActions
                    host={host.host}
                    delivery={delivery}
                    working={working}
                    onRedeliver={onRedeliver}
                  />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
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
