import {
  Alert,
  Box,
  Button,
  CircularProgress,
  Stack,
  TableCell,
  TableRow,
  Typography,
} from "@mui/material";
import { HeadedTable } from "../../components/headed-table/headed-table.tsx";
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
