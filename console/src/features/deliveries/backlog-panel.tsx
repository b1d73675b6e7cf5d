import { useEffect, useRef, useState } from "react";
import { DefinitionGrid } from "../../components/definition-grid/definition-grid.tsx";
import { Link, Paper, Stack, Typography } from "@mui/material";
import { Link as RouterLink } from "react-router";
import { fetchBacklog } from "./host-client.ts";
import type { Backlog } from "../../lib/wire-types.ts";

/** An age in seconds as words: "45 s", "12 min", "3 h 5 min", "2 d 4 h". */
export function formatAge(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  const minutes = Math.floor(s / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
  const days = Math.floor(hours / 24);
  return hours % 24 ? `${days} d ${hours % 24} h` : `${days} d`;
}

/**
 * What waits for delivery (`GET /fe/account/backlog`, docs/api.md#get-feaccountbacklog), asked
 * again each time the host list is read (`round`); nothing shows on a server without the route.
 */
export function BacklogPanel({ round }: { round: number }) {
  const [backlog, setBacklog] = useState<Backlog | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  // One ask at a time, never cut short: a round that comes while one is under way is skipped,
  // so a 404 is remembered before the route could be asked again.
  const asking = useRef(false);
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => void (mounted.current = false);
  }, []);
  useEffect(() => {
    if (asking.current) return;
    asking.current = true;
    void fetchBacklog().then((answer) => {
      asking.current = false;
      if (!mounted.current) return;
      if (answer.ok) {
        setBacklog(answer.backlog);
        setProblem(null);
      } else if (!answer.unsupported) {
        setProblem(answer.reason);
      }
    });
  }, [round]);

  if (backlog === null && problem === null) return null;
  return (
    <Paper variant="outlined" component="section" aria-label="Backlog" sx={{ p: 1.5 }}>
      <Typography variant="h6" component="h2">
        Backlog
      </Typography>
      {problem && backlog === null ? (
        <Typography>Could not read the backlog: {problem}.</Typography>
      ) : (
        backlog && (
          <DefinitionGrid>
            <dt>Waiting</dt>
            <dd>{backlog.waiting}</dd>
            <dt>In flight</dt>
            <dd>{backlog.inFlight}</dd>
            <dt>Retrying</dt>
            <dd>{backlog.retrying}</dd>
            <dt>About to be given up</dt>
            <dd>{backlog.nearGiveUp}</dd>
            <dt>Oldest waiting</dt>
            <dd>
              {backlog.oldestWaitingAgeS === null ? "none" : formatAge(backlog.oldestWaitingAgeS)}
            </dd>
            <dt>Worst hosts</dt>
            <dd>
              {backlog.worstHosts.length === 0 ? (
                "none"
              ) : (
                <Stack component="ol" sx={{ m: 0, pl: 2.5 }}>
                  {backlog.worstHosts.map((worst) => (
                    <li key={worst.host}>
                      <Link
                        component={RouterLink}
                        to={`/deliveries/${encodeURIComponent(worst.host)}`}
                      >
                        {worst.host}
                      </Link>
                      : {worst.waiting} waiting, the oldest for {formatAge(worst.oldestAgeS)}
                    </li>
                  ))}
                </Stack>
              )}
            </dd>
          </DefinitionGrid>
        )
      )}
    </Paper>
  );
}
