import { Alert, Box, Button, CircularProgress, Stack, Typography } from "@mui/material";
import { ColumnTable, type Column } from "../../components/column-table/column-table.tsx";
import type { HostCheckStep } from "../../lib/wire-types.ts";
import { useHostCheck } from "./use-host-check.ts";

/** The steps of the diagnosis, in order, with the words the page shows while one runs. */
const CHECK_STEPS: Record<HostCheckStep["step"], string> = {
  resolve: "resolving its name",
  connect: "connecting",
  nodeinfo: "reading its NodeInfo",
  webfinger: "WebFinger",
  actor: "the signed GET of its actor",
  inbox: "the GET of its inbox",
};

/** A step as the table shows it: done (ok or failed, its time and detail) or running. */
type StepRow = {
  step: HostCheckStep["step"];
  result: "ok" | "failed" | "running";
  ms: number | null;
  detail: string;
};

const STEP_COLUMNS: Column<StepRow>[] = [
  { title: "Step", value: (row) => row.step },
  { title: "Result", value: (row) => row.result },
  { title: "Time (ms)", value: (row) => row.ms },
  { title: "Detail", value: (row) => row.detail, cellSx: { wordBreak: "break-word" } },
];

/**
 * "Check host": each step shows as it completes, the one running says so, and the verdict
 * sentence ends it.
 */
export function HostCheckPanel({ host }: { host: string }) {
  const { running, steps, verdict, problem, run } = useHostCheck(host);
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
        <ColumnTable label="Check steps" rows={stepRows(steps, running)} columns={STEP_COLUMNS} />
      )}
      {verdict !== null && <Alert severity={failed ? "error" : "success"}>{verdict}</Alert>}
    </Stack>
  );
}

/** The steps done, then the one running (once a step runs: not while the check starts). */
function stepRows(
  steps: readonly HostCheckStep[],
  running: HostCheckStep["step"] | "starting" | null,
) {
  const rows: StepRow[] = steps.map((step) => ({
    step: step.step,
    result: step.ok ? "ok" : "failed",
    ms: step.ms,
    detail: step.detail,
  }));
  if (running !== null && running !== "starting")
    rows.push({ step: running, result: "running", ms: null, detail: `${CHECK_STEPS[running]}…` });
  return rows;
}
