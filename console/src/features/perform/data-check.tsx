import { Alert, Box, Button, Typography } from "@mui/material";
import type { SchemaCheck } from "./schema-check.ts";

type Props = {
  method: string;
  /** Null while no method is chosen or the box is not a JSON object. */
  check: SchemaCheck | null;
  /** Offered when the box holds a bare activity and the method wants it under "data". */
  onPutUnderData: (() => void) | null;
  /** The actor `data.actor` names when it is not the one acting, else null. */
  otherActor: string | null;
  /** The actor acting, as the page names it. */
  actingName: string;
};

/** Under the data box: what the check of the box against the method's schema found, in words. */
export function DataCheck({ method, check, onPutUnderData, otherActor, actingName }: Props) {
  return (
    <Box data-testid="data-check" sx={{ display: "flex", flexDirection: "column", gap: 1 }}>
      {check?.kind === "failed" && (
        <Alert severity="error">
          Not sent: the data does not fit {method}&apos;s schema
          {check.problems.length > 1 ? ` (${check.problems.length} problems)` : ""}.
          <Box component="ul" aria-label="Problems with the data" sx={{ m: 0, pl: 2 }}>
            {check.problems.map((problem) => (
              <li key={`${problem.path}\n${problem.words}`}>
                {problem.path === "" ? "The data" : <code>{problem.path}</code>} {problem.words}
              </li>
            ))}
          </Box>
        </Alert>
      )}
      {check?.kind === "passed" && (
        <Typography variant="body2">
          Checked against {method}&apos;s schema: no problems.
        </Typography>
      )}
      {check?.kind === "unchecked" && (
        <Typography variant="body2">
          The server gives no schema for {method}: nothing could be checked before sending.
        </Typography>
      )}
      {onPutUnderData && (
        <Box>
          <Typography variant="body2" component="span" sx={{ mr: 1 }}>
            This looks like an activity; {method} takes it under &quot;data&quot;.
          </Typography>
          <Button variant="outlined" size="small" onClick={onPutUnderData}>
            Put it under data
          </Button>
        </Box>
      )}
      {otherActor !== null && (
        <Alert severity="warning">
          data.actor is {otherActor}, not {actingName}, the actor you act as. The call is signed by
          that actor, and receivers refuse an activity whose actor is not its signer.
        </Alert>
      )}
    </Box>
  );
}
