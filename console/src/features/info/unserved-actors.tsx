import { Alert, AlertTitle, Box } from "@mui/material";
import type { AccountInfo } from "../../lib/wire-types.ts";

/**
 * Corral names actors whose base URL it does not serve (`actorsNotServed` in the info: a database
 * started on another port): their ids and WebFinger answer 404, and the reason says which flag
 * serves them. A server without the field (cattle_grid) shows nothing here.
 */
export function UnservedActors({ actors }: { actors: AccountInfo["actorsNotServed"] }) {
  if (!actors || actors.length === 0) return null;
  return (
    <Box component="section" aria-label="Actors not served" sx={{ mb: 3 }}>
      <Alert severity="warning">
        <AlertTitle>
          {actors.length === 1
            ? "1 actor lives on a base URL this server does not serve"
            : `${actors.length} actors live on base URLs this server does not serve`}
        </AlertTitle>
        <Box component="ul" sx={{ m: 0, pl: 2.5, wordBreak: "break-word" }}>
          {actors.map((actor) => (
            <li key={actor.id}>
              <strong>{actor.name}</strong>: {actor.reason}
            </li>
          ))}
        </Box>
      </Alert>
    </Box>
  );
}
