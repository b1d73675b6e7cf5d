import { Fragment } from "react";
import { DefinitionGrid } from "../../components/definition-grid/definition-grid.tsx";
import {
  Box,
  Button,
  Chip,
  CircularProgress,
  Link,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
  useMediaQuery,
} from "@mui/material";
import { useTheme } from "@mui/material/styles";
import { Link as RouterLink } from "react-router";
import { FATE_COLORS, fateOfHost } from "../../lib/delivery-fate.ts";
import type { HostAction, HostHealth } from "../../lib/host-health.ts";
import { FailuresSparkline } from "./failures-sparkline.tsx";
import { Moment } from "../../components/moment/index.ts";
import { describeWork, type HostWork } from "./use-host-actions.ts";

type Props = {
  hosts: HostHealth[];
  working: HostWork | null;
  onStop: (host: string) => void;
  onAct: (host: string, action: HostAction) => void;
};

// Short cells never wrap (no "fail-ing" at 390 px); the container scrolls sideways instead.
const noWrap = { whiteSpace: "nowrap" } as const;
// The host stays in view while a narrow screen scrolls the other columns under it.
const pinned = { position: "sticky", left: 0, zIndex: 1, bgcolor: "background.paper" } as const;

/**
 * One row per remote host: its state and numbers, and what the operator can do about it. Below
 * 600 px a table cannot show all of that (it cut off at "Last su…" with Stop and Retry out of
 * sight), so each host becomes a card listing the same fields, its buttons in view.
 */
export function HostTable(props: Props) {
  const narrow = useMediaQuery(useTheme().breakpoints.down("sm"));
  return narrow ? <HostCards {...props} /> : <WideHostTable {...props} />;
}

function HostCards({ hosts, working, onStop, onAct }: Props) {
  return (
    <Box component="ul" aria-label="Remote hosts" sx={{ listStyle: "none", p: 0, m: 0 }}>
      {hosts.map((host) => (
        <Paper
          component="li"
          variant="outlined"
          key={host.host}
          aria-label={host.host}
          sx={{ p: 1.5, mb: 1.5 }}
        >
          <Stack
            direction="row"
            useFlexGap
            spacing={1}
            sx={{ alignItems: "center", flexWrap: "wrap" }}
          >
            <Typography sx={{ fontWeight: 600 }}>
              <HostName host={host.host} />
            </Typography>
            <Chip size="small" label={fateOfHost(host)} color={FATE_COLORS[fateOfHost(host)]} />
          </Stack>
          <DefinitionGrid>
            {host.state === "failing" && host.failingSince && (
              <>
                <dt>Failing since</dt>
                <dd>
                  <Moment at={host.failingSince} />
                </dd>
              </>
            )}
            {host.state !== "ok" && host.lastError && (
              <>
                <dt>Last error</dt>
                <dd style={{ overflowWrap: "anywhere" }}>{host.lastError}</dd>
              </>
            )}
            <dt>Last success</dt>
            <dd>
              <Moment at={host.lastSuccessAt} />
            </dd>
            <dt>Last failure</dt>
            <dd>
              <Moment at={host.lastFailureAt} />
            </dd>
            <dt>Failures (7 days)</dt>
            <dd>
              <Stack direction="row" spacing={1} sx={{ alignItems: "center" }}>
                <span>{host.failures7d}</span>
                {host.failuresByDay && <FailuresSparkline counts={host.failuresByDay} />}
              </Stack>
            </dd>
            <dt>Queued</dt>
            <dd>{host.queued}</dd>
          </DefinitionGrid>
          <HostActions host={host} working={working} onStop={onStop} onAct={onAct} />
        </Paper>
      ))}
    </Box>
  );
}

function WideHostTable({ hosts, working, onStop, onAct }: Props) {
  return (
    <TableContainer sx={{ overflowX: "auto" }}>
      <Table size="small" aria-label="Remote hosts">
        <TableHead>
          <TableRow>
            <TableCell sx={pinned}>Host</TableCell>
            {["State", "Last success", "Last failure", "Failures (7 days)", "Queued"].map(
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
              <TableCell sx={{ ...pinned, minWidth: 170 }}>
                <HostName host={host.host} />
              </TableCell>
              <TableCell>
                <Chip size="small" label={fateOfHost(host)} color={FATE_COLORS[fateOfHost(host)]} />
                {host.state === "failing" && host.failingSince && (
                  <Typography variant="caption" component="div" sx={noWrap}>
                    since <Moment at={host.failingSince} />
                  </Typography>
                )}
                {host.state !== "ok" && host.lastError && (
                  <Typography
                    variant="caption"
                    component="div"
                    sx={{ maxWidth: 320, overflowWrap: "anywhere" }}
                  >
                    {host.lastError}
                  </Typography>
                )}
              </TableCell>
              <TableCell sx={noWrap}>
                <Moment at={host.lastSuccessAt} />
              </TableCell>
              <TableCell sx={noWrap}>
                <Moment at={host.lastFailureAt} />
              </TableCell>
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

/** A host name that a narrow column breaks after its dots ("pixelfed." "example"), not anywhere. */
function HostName({ host }: { host: string }) {
  const labels = host.split(".");
  const name = labels.map((label, index) => (
    <Fragment key={index}>
      {label}
      {index < labels.length - 1 && (
        <>
          .<wbr />
        </>
      )}
    </Fragment>
  ));
  return (
    <Link component={RouterLink} to={`/deliveries/${encodeURIComponent(host)}`}>
      {name}
    </Link>
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
    // The two buttons stack when the column is narrow rather than widen the table.
    <Stack direction="row" useFlexGap spacing={1} sx={{ alignItems: "center", flexWrap: "wrap" }}>
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
