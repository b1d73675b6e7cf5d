import {
  Button,
  Chip,
  CircularProgress,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
} from "@mui/material";
import type { HostAction, HostHealth, HostState } from "../../lib/host-health.ts";
import { FailuresSparkline } from "./failures-sparkline.tsx";
import { formatWhen } from "./format-when.ts";
import { describeWork, type HostWork } from "./use-host-actions.ts";

type Props = {
  hosts: HostHealth[];
  working: HostWork | null;
  onStop: (host: string) => void;
  onAct: (host: string, action: HostAction) => void;
};

const STATE_COLORS: Record<HostState, "success" | "error" | "warning"> = {
  ok: "success",
  failing: "error",
  stopped: "warning",
};

// Short cells never wrap (no "fail-ing" at 390 px); the container scrolls sideways instead.
const noWrap = { whiteSpace: "nowrap" } as const;

/** One row per remote host: its state and numbers, and what the operator can do about it. */
export function HostTable({ hosts, working, onStop, onAct }: Props) {
  return (
    <TableContainer sx={{ overflowX: "auto" }}>
      <Table size="small" aria-label="Remote hosts">
        <TableHead>
          <TableRow>
            {["Host", "State", "Last success", "Last failure", "Failures (7 days)", "Queued"].map(
              (title) => (
                <TableCell key={title} sx={noWrap}>
                  {title}
                </TableCell>
              ),
            )}
            <TableCell sx={noWrap}>Actions</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {hosts.map((host) => (
            <TableRow key={host.host}>
              <TableCell sx={{ minWidth: 140, overflowWrap: "anywhere" }}>{host.host}</TableCell>
              <TableCell>
                <Chip size="small" label={host.state} color={STATE_COLORS[host.state]} />
              </TableCell>
              <TableCell sx={noWrap}>{formatWhen(host.lastSuccessAt)}</TableCell>
              <TableCell sx={noWrap}>{formatWhen(host.lastFailureAt)}</TableCell>
              <TableCell>
                <Stack direction="row" spacing={1} sx={{ alignItems: "center" }}>
                  <span>{host.failures7d}</span>
                  {host.failuresByDay && <FailuresSparkline counts={host.failuresByDay} />}
                </Stack>
              </TableCell>
              <TableCell>{host.queued}</TableCell>
              <TableCell>
                <HostActions host={host} working={working} onStop={onStop} onAct={onAct} />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

function HostActions({
  host,
  working,
  onStop,
  onAct,
}: Omit<Props, "hosts"> & { host: HostHealth }) {
  const busyHere = working !== null && working.host === host.host && working.action !== "redeliver";
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: "center" }}>
      {host.state === "stopped" ? (
        <Button
          size="small"
          variant="outlined"
          sx={noWrap}
          disabled={working !== null}
          onClick={() => onAct(host.host, "resume")}
        >
          Resume delivery
        </Button>
      ) : (
        <Button
          size="small"
          variant="outlined"
          color="warning"
          sx={noWrap}
          disabled={working !== null}
          onClick={() => onStop(host.host)}
        >
          Stop delivery
        </Button>
      )}
      <Button
        size="small"
        sx={noWrap}
        disabled={working !== null}
        onClick={() => onAct(host.host, "retry")}
      >
        Retry now
      </Button>
      {/* Beside the buttons, not in them: their names stay their labels. */}
      {busyHere && <CircularProgress size={16} aria-label={describeWork(working)} />}
    </Stack>
  );
}
