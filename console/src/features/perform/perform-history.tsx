import { Moment } from "../../components/moment/index.ts";
import { Button, Link, List, ListItem, ListItemText, Stack, Typography } from "@mui/material";
import { Link as RouterLink } from "react-router";
import { usePerformHistory, type PerformCall } from "../../lib/perform-history-store.ts";
import type { Actor } from "../../lib/wire-types.ts";
import { describeOutcome } from "./call-text.ts";

type Props = {
  actors: readonly Actor[];
  /** Sends the same body again at once. */
  onRunAgain: (call: PerformCall) => void;
  /** Puts the call back into the form. */
  onEdit: (call: PerformCall) => void;
  /** While a call is on its way, another waits. */
  busy: boolean;
};

/** The list "History": the last calls, newest first. */
export function PerformHistory({ actors, onRunAgain, onEdit, busy }: Props) {
  const calls = usePerformHistory((state) => state.calls);
  const nameOf = (id: string) => actors.find((actor) => actor.id === id)?.name ?? id;
  return (
    <section aria-labelledby="perform-history-heading">
      <Typography variant="h6" component="h2" id="perform-history-heading">
        History
      </Typography>
      {calls.length === 0 ? (
        <Typography color="text.secondary">No calls yet.</Typography>
      ) : (
        <List dense aria-labelledby="perform-history-heading">
          {calls.map((call) => (
            <ListItem key={call.key} divider sx={{ flexWrap: "wrap", columnGap: 1 }}>
              <ListItemText
                sx={{ minWidth: 200, overflowWrap: "anywhere" }}
                primary={
                  <>
                    {call.method} as {nameOf(call.body.actor)}, <Moment at={call.at} />
                  </>
                }
                secondary={describeOutcome(call.outcome)}
              />
              <Stack direction="row" spacing={1} sx={{ flexShrink: 0, alignItems: "center" }}>
                {call.outcome.kind === "recorded" && (
                  <Link
                    component={RouterLink}
                    to={`/perform?call=${encodeURIComponent(call.outcome.triggerId)}`}
                  >
                    Show call
                  </Link>
                )}
                <Button size="small" disabled={busy} onClick={() => onRunAgain(call)}>
                  Run again
                </Button>
                <Button size="small" onClick={() => onEdit(call)}>
                  Edit
                </Button>
              </Stack>
            </ListItem>
          ))}
        </List>
      )}
    </section>
  );
}
