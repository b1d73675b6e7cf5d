import { useCallback, useEffect, useState, type ReactNode } from "react";
import { fateOfHost, shortReason } from "../../lib/delivery-fate.ts";
import { HeadedTable } from "../../components/headed-table/headed-table.tsx";
import {
  Alert,
  Box,
  Button,
  CircularProgress,
  Link,
  Paper,
  Stack,
  TableCell,
  TableRow,
  Typography,
} from "@mui/material";
import { Link as RouterLink, useParams } from "react-router";
import { checkHost, fetchHostDetail } from "./host-client.ts";
import { fetchRefusals, reasonLabel, type RefusalEntry } from "../../lib/refusal-client.ts";
import type { HostCheckStep, HostDetail } from "../../lib/wire-types.ts";
import { Moment } from "../../components/moment/index.ts";
import { StopDeliveryDialog } from "./stop-delivery-dialog.tsx";
import { describeWork, useHostActions } from "./use-host-actions.ts";

const noWrap = { whiteSpace: "nowrap" } as const;

/** One host, both directions (workbench.md "One host"), at `/deliveries/{host}`. */
export function HostPage() {
  const host = useParams().host ?? "";
  const [detail, setDetail] = useState<HostDetail | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [round, setRound] = useState(0);
  const refresh = useCallback(() => setRound((n) => n + 1), []);
  const { working, notice, act } = useHostActions(refresh);
  const [confirming, setConfirming] = useState<string | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    setLoading(true);
    fetchHostDetail(host, controller.signal).then(
      (answer) => {
        if (controller.signal.aborted) return;
        setLoading(false);
        if (answer.ok) {
          setDetail(answer.detail);
          setProblem(null);
        } else {
          setProblem(answer.reason);
        }
      },
      () => {},
    );
    return () => controller.abort();
  }, [host, round]);

  const outbound = detail?.outbound ?? null;
  return (
    <Stack spacing={2}>
      <Typography variant="h5" component="h1" sx={{ wordBreak: "break-all" }}>
        {host}
      </Typography>
      <Typography>
        <Link component={RouterLink} to="/deliveries">
          Deliveries
        </Link>{" "}
        › one host: what it sent here, what was sent to it, and what is wrong with it.
      </Typography>
      <Stack direction="row" spacing={1} sx={{ alignItems: "center" }} role="status">
        {loading && <CircularProgress size={16} aria-label={`Loading ${host}`} />}
        {loading && <Typography variant="body2">Loading {host}…</Typography>}
      </Stack>
      {problem && (
        <Alert severity="error">
          Could not read {host}: {problem}.
        </Alert>
      )}
      {notice && (
        <Alert severity={notice.ok ? "success" : "error"} role={notice.ok ? "status" : "alert"}>
          {notice.text}
        </Alert>
      )}
      {detail && (
        <>
          <Typography>
            Software:{" "}
            {detail.software
              ? `${detail.software.name}${detail.software.version ? ` ${detail.software.version}` : ""}`
              : "unknown (no NodeInfo read)"}
          </Typography>
          {detail.hold && (
            <Alert severity="warning">
              Held since <Moment at={detail.hold.since} />: {detail.hold.reason}.{" "}
              {detail.hold.nextProbeAt
                ? `Next probe $<Moment at={detail.hold.nextProbeAt} />.`
                : "No probe planned."}
            </Alert>
          )}
          <Stack direction={{ xs: "column", md: "row" }} spacing={2}>
            <Directions title="Inbound (from it)">
              <dt>Last accepted</dt>
              <dd>
                <Moment at={detail.inbound.lastAcceptedAt} />
              </dd>
              <dt>Last refused</dt>
              <dd>
                <Moment at={detail.inbound.lastRefusedAt} />
              </dd>
              <dt>Accepted (7 days)</dt>
              <dd>{detail.inbound.accepted7d}</dd>
              <dt>Refused (7 days)</dt>
              <dd>
                {detail.inbound.refused7d > 0 ? (
                  <Link component={RouterLink} to={`/refused?host=${encodeURIComponent(host)}`}>
                    {detail.inbound.refused7d}
                  </Link>
                ) : (
                  0
                )}
              </dd>
              {Object.entries(detail.inbound.refusedByReason).map(([reason, count]) => (
                <Box component="div" key={reason} sx={{ display: "contents" }}>
                  <dt>Refused: {reasonLabel(reason)}</dt>
                  <dd>{count}</dd>
                </Box>
              ))}
            </Directions>
            <Directions title="Outbound (to it)">
              {outbound ? (
                <>
                  <dt>State</dt>
                  <dd>{fateOfHost({ ...outbound, hold: detail.hold })}</dd>
                  <dt>Last delivered</dt>
                  <dd>
                    <Moment at={outbound.lastSuccessAt} />
                  </dd>
                  <dt>Last failed</dt>
                  <dd>
                    <Moment at={outbound.lastFailureAt} />
                  </dd>
                  {outbound.lastError && (
                    <>
                      <dt>Last error</dt>
                      <dd>{outbound.lastError}</dd>
                    </>
                  )}
                  <dt>Failures (7 days)</dt>
                  <dd>{outbound.failures7d}</dd>
                  <dt>Waiting</dt>
                  <dd>{outbound.queued}</dd>
                </>
              ) : (
                <>
                  <dt>Sent</dt>
                  <dd>nothing yet</dd>
                </>
              )}
            </Directions>
          </Stack>
          <Stack
            direction="row"
            useFlexGap
            spacing={1}
            sx={{ alignItems: "center", flexWrap: "wrap" }}
          >
            {outbound &&
              (outbound.state === "stopped" ? (
                <Button
                  variant="outlined"
                  disabled={working !== null}
                  onClick={() => void act(host, "resume")}
                >
                  Resume delivery
                </Button>
              ) : (
                <Button
                  variant="outlined"
                  color="warning"
                  disabled={working !== null}
                  onClick={() => setConfirming(host)}
                >
                  Stop delivery
                </Button>
              ))}
            {outbound && (
              <Button disabled={working !== null} onClick={() => void act(host, "retry")}>
                Retry now
              </Button>
            )}
            {working && <CircularProgress size={16} aria-label={describeWork(working)} />}
          </Stack>
          <HostCheckPanel host={host} />
          <Attempts detail={detail} />
          {detail.inbound.refused7d > 0 && <HostRefusals host={host} round={round} />}
        </>
      )}
      {/* The check needs no record of the host: offered even when nothing was read. */}
      {!detail && problem && <HostCheckPanel host={host} />}
      <StopDeliveryDialog
        host={confirming}
        onCancel={() => setConfirming(null)}
        onConfirm={(name) => {
          setConfirming(null);
          void act(name, "stop");
        }}
      />
    </Stack>
  );
}

function Directions({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper variant="outlined" component="section" aria-label={title} sx={{ p: 1.5, flex: 1 }}>
      <Typography variant="h6" component="h2">
        {title}
      </Typography>
      <Box
        component="dl"
        sx={{
          display: "grid",
          gridTemplateColumns: "auto 1fr",
          columnGap: 2,
          rowGap: 0.5,
          my: 1,
          "& dt": { color: "text.secondary" },
          "& dd": { m: 0, wordBreak: "break-word" },
        }}
      >
        {children}
      </Box>
    </Paper>
  );
}

/** The steps of server.md's diagnosis, in order, with the words the page shows while one runs. */
const CHECK_STEPS: Record<HostCheckStep["step"], string> = {
  resolve: "resolving its name",
  connect: "connecting",
  nodeinfo: "reading its NodeInfo",
  webfinger: "WebFinger",
  actor: "the signed GET of its actor",
  inbox: "the GET of its inbox",
};

/**
 * "Check host": the server streams the diagnosis; each step shows as it completes, the one running
 * says so, and the verdict sentence ends it.
 */
function HostCheckPanel({ host }: { host: string }) {
  const [running, setRunning] = useState<HostCheckStep["step"] | "starting" | null>(null);
  const [steps, setSteps] = useState<HostCheckStep[]>([]);
  const [verdict, setVerdict] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  const run = async () => {
    setRunning("starting");
    setSteps([]);
    setVerdict(null);
    setProblem(null);
    const answer = await checkHost(host, (line) => {
      if ("verdict" in line) return;
      if ("running" in line) setRunning(line.running);
      else setSteps((done) => [...done, line]);
    });
    setRunning(null);
    if (answer.ok) {
      // A server that does not stream answers once: its steps arrive here.
      setSteps(answer.check.steps);
      setVerdict(answer.check.verdict);
    } else setProblem(answer.reason);
  };

  const failed = steps.length === 0 || steps.some((step) => !step.ok);
  return (
    <Stack spacing={1} component="section" aria-label="Check host">
      <Typography variant="h6" component="h2">
        Diagnosis
      </Typography>
      <Stack direction="row" spacing={1} sx={{ alignItems: "center" }}>
        <Button variant="contained" disabled={running !== null} onClick={() => void run()}>
          Check host
        </Button>
        <Box role="status" sx={{ display: "flex", alignItems: "center", gap: 1 }}>
          {running !== null && (
            <>
              <CircularProgress size={16} aria-hidden />
              <Typography variant="body2">
                {running === "starting"
                  ? `Checking ${host} (up to 30 s)…`
                  : `Checking ${host}: ${CHECK_STEPS[running]}…`}
              </Typography>
            </>
          )}
        </Box>
      </Stack>
      {problem && (
        <Alert severity="error">
          Could not check {host}: {problem}.
        </Alert>
      )}
      {(steps.length > 0 || (running !== null && running !== "starting")) && (
        <HeadedTable label="Check steps" titles={["Step", "Result", "Time (ms)", "Detail"]}>
          {steps.map((step) => (
            <TableRow key={step.step}>
              <TableCell>{step.step}</TableCell>
              <TableCell>{step.ok ? "ok" : "failed"}</TableCell>
              <TableCell>{step.ms}</TableCell>
              <TableCell sx={{ wordBreak: "break-word" }}>{step.detail}</TableCell>
            </TableRow>
          ))}
          {running !== null && running !== "starting" && (
            <TableRow>
              <TableCell>{running}</TableCell>
              <TableCell>running</TableCell>
              <TableCell />
              <TableCell>{CHECK_STEPS[running]}…</TableCell>
            </TableRow>
          )}
        </HeadedTable>
      )}
      {verdict !== null && <Alert severity={failed ? "error" : "success"}>{verdict}</Alert>}
    </Stack>
  );
}

function Attempts({ detail }: { detail: HostDetail }) {
  return (
    <Stack spacing={1} component="section" aria-label="Delivery attempts">
      <Typography variant="h6" component="h2">
        Delivery attempts
      </Typography>
      {detail.attempts.length === 0 ? (
        <Typography>{describeNoAttempts(detail)}</Typography>
      ) : (
        <HeadedTable
          label="Newest attempts"
          titles={["Time", "Inbox", "Status", "Duration (ms)", "Error", "Answer"]}
        >
          {detail.attempts.map((attempt, index) => (
            <TableRow key={index}>
              <TableCell sx={noWrap}>
                <Moment at={attempt.at} />
              </TableCell>
              <TableCell sx={{ wordBreak: "break-all" }}>{attempt.inbox}</TableCell>
              <TableCell>{attempt.status ?? "none"}</TableCell>
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
      )}
    </Stack>
  );
}

const REFUSALS_SHOWN = 10;

/** The host's newest refusals; the rest on "Refused", filtered by the host. */
function HostRefusals({ host, round }: { host: string; round: number }) {
  const [rows, setRows] = useState<RefusalEntry[] | null>(null);
  const [more, setMore] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    fetchRefusals({ host, limit: REFUSALS_SHOWN }, controller.signal).then(
      (answer) => {
        if (controller.signal.aborted) return;
        if (answer.ok) {
          setRows(answer.refusals);
          setMore(answer.more);
        } else if (!answer.unsupported) {
          setProblem(answer.reason);
        }
      },
      () => {},
    );
    return () => controller.abort();
  }, [host, round]);

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
              <TableCell sx={noWrap}>
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

/**
 * Why the attempts list is empty, agreeing with the counts beside it: failures that were never
 * sent (the actor or its inbox could not be found) count as failures but are no attempts.
 */
function describeNoAttempts(detail: HostDetail): string {
  const failures = detail.outbound?.failures7d ?? 0;
  if (failures === 0) return `No delivery to ${detail.host} was attempted yet.`;
  const reason = detail.outbound?.lastError ?? detail.lastError;
  const count = failures === 1 ? "its 1 failure" : `its ${failures} failures`;
  return `Nothing was sent to ${detail.host}: ${count} in 7 days ${failures === 1 ? "was a delivery" : "were deliveries"} not sent${reason ? `: ${shortReason(reason)}` : ""}.`;
}
