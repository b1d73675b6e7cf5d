import { useEffect, useRef } from "react";
import { Alert, Box, CircularProgress, Link, Stack, Typography } from "@mui/material";
import { Link as RouterLink } from "react-router";
import type { PerformCall } from "../../lib/perform-history-store.ts";
import { TriggerView } from "./trigger-view.tsx";

type Props = {
  sending: string | null;
  latest: PerformCall | null;
  /** The `?call=` of the address: a recorded call to show live. */
  callId: string | null;
  /** How many calls the page has made; each new one brings the region into view. */
  calls: number;
};

/** The region "Result": what the last Perform (or the call in the address) did, truthfully. */
export function PerformResult({ sending, latest, callId, calls }: Props) {
  const heading = useRef<HTMLHeadingElement>(null);
  // A call made below a long data box would answer out of sight (at 1400×900 the form alone can
  // fill the window): scroll the region in and move focus to its heading, for screen readers too.
  useEffect(() => {
    if (calls === 0 || !heading.current) return;
    heading.current.focus({ preventScroll: true });
    heading.current.scrollIntoView?.({ block: "start" }); // jsdom has none; a browser always does
  }, [calls]);
  if (sending === null && latest === null && callId === null) return null;
  // One place for the live view, whether the call came from this Perform or from the address:
  // the address catches up with a new call a render later, and the view must not start over.
  const recorded = latest?.outcome.kind === "recorded" ? latest.outcome.triggerId : null;
  const triggerId = callId ?? recorded;
  return (
    <Box component="section" role="region" aria-label="Result">
      <Typography
        ref={heading}
        variant="h6"
        component="h2"
        tabIndex={-1}
        // Below the fixed top bar once scrolled to; no focus ring on a heading only focused by us.
        sx={{ scrollMarginTop: 80, "&:focus": { outline: "none" } }}
      >
        Result
      </Typography>
      {sending !== null ? (
        <Stack direction="row" spacing={1} sx={{ alignItems: "center" }}>
          <CircularProgress size={20} aria-label={`Sending ${sending}`} />
          <Typography>Sending {sending}…</Typography>
        </Stack>
      ) : triggerId !== null ? (
        <TriggerView key={triggerId} id={triggerId} />
      ) : (
        latest && <AnswerView call={latest} />
      )}
    </Box>
  );
}

function AnswerView({ call }: { call: PerformCall }) {
  const { method, outcome } = call;
  switch (outcome.kind) {
    case "refused":
      return (
        <Alert severity="error">
          {method}: failed (HTTP {outcome.status}): {outcome.detail}
          {outcome.status < 500 && ". Nothing was run."}
          {outcome.problems.length > 0 && (
            <Box component="ul" sx={{ m: 0, pl: 2 }}>
              {outcome.problems.map((problem, index) => (
                <li key={index}>
                  <code>{problem.loc}</code>: {problem.msg}
                </li>
              ))}
            </Box>
          )}
        </Alert>
      );
    case "unreachable":
      return (
        <Alert severity="error">
          {method}: no answer, the server could not be reached ({outcome.reason}). The call may not
          have arrived; the <StreamLinks /> show whether it ran.
        </Alert>
      );
    case "handed-over":
      return (
        <Alert severity="info">
          {method}: handed over (HTTP {outcome.status}). This server does not report what a call
          did; its outcomes appear on the <StreamLinks />.
          {method === "delete_actor" &&
            " The actor stays in the Open menu until the server no longer lists it."}
        </Alert>
      );
    case "recorded":
      return null; // shown live by TriggerView
  }
}

function StreamLinks() {
  return (
    <>
      <Link component={RouterLink} to="/stream/outgoing">
        Outgoing
      </Link>{" "}
      and{" "}
      <Link component={RouterLink} to="/stream/error">
        Error
      </Link>{" "}
      streams
    </>
  );
}
