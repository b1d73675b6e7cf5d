import { Alert, CircularProgress, Link, Stack, Typography } from "@mui/material";
import { Link as RouterLink } from "react-router";
import { Moment } from "../../components/moment/index.ts";
import { formatMoment } from "../../lib/format-moment.ts";
import type { HostHealthState } from "./use-host-health.ts";

/** Loading, refreshing, when the numbers were read, and why the latest ask failed. */
export function RefreshStatus({ health }: { health: HostHealthState }) {
  const { hosts, seenAt, problem, signedOut, fetching, everySeconds } = health;
  const shown = seenAt && `Showing what was read at ${formatMoment(seenAt)}. `;
  return (
    <>
      <Stack direction="row" spacing={1} sx={{ alignItems: "center" }} role="status">
        {fetching && (
          <CircularProgress
            size={16}
            aria-label={hosts === null ? "Loading deliveries" : "Refreshing deliveries"}
          />
        )}
        <Typography variant="body2" data-testid="refresh-status">
          {signedOut ? (
            "Not asking again until you sign in."
          ) : seenAt === null ? (
            fetching ? (
              "Loading deliveries…"
            ) : (
              `Not read yet; asking again every ${everySeconds} s.`
            )
          ) : (
            <>
              Updated <Moment at={seenAt.getTime()} />; refreshed every {everySeconds} s while open
              {fetching ? " (refreshing…)" : ""}.
            </>
          )}
        </Typography>
      </Stack>
      {problem && (
        <Alert severity="error">
          {hosts === null ? "Could not read deliveries" : "Could not refresh deliveries"}:{" "}
          {`${problem}. `}
          {shown}
          {signedOut ? (
            <>
              The session has ended:{" "}
              <Link component={RouterLink} to="/signin">
                Sign In
              </Link>{" "}
              again.
            </>
          ) : (
            "Asking again."
          )}
        </Alert>
      )}
    </>
  );
}
