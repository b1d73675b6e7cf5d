import { Moment } from "../../components/moment/index.ts";
import { useEffect, useState } from "react";
import { HeadedTable } from "../../components/headed-table/headed-table.tsx";
import {
  Alert,
  Box,
  Button,
  Chip,
  CircularProgress,
  Link,
  MenuItem,
  Stack,
  TableCell,
  TableRow,
  TextField,
  Typography,
} from "@mui/material";
import { Link as RouterLink, useSearchParams } from "react-router";
import {
  fetchRefusals,
  REFUSAL_REASONS,
  reasonLabel,
  refusalHost,
  type RefusalEntry,
} from "../../lib/refusal-client.ts";

type Filters = { host: string; reason: string };

type Loaded = {
  rows: RefusalEntry[];
  more: boolean;
  problem: string | null;
  unsupported: boolean;
  loading: boolean;
};

const noWrap = { whiteSpace: "nowrap" } as const;

/** What the inbox refused, newest first (workbench.md "What the inbox refused"). */
export function RefusedPage() {
  // A host's page links here with ?host= (its refusals); the filters start from it.
  const [params] = useSearchParams();
  const [filters, setFilters] = useState<Filters>({
    host: params.get("host") ?? "",
    reason: params.get("reason") ?? "",
  });
  const [loaded, setLoaded] = useState<Loaded>({
    rows: [],
    more: false,
    problem: null,
    unsupported: false,
    loading: true,
  });
  // Bumped by "Load more": the id of the oldest row shown, or null for the first page.
  const [before, setBefore] = useState<number | null>(null);

  useEffect(() => {
    setBefore(null);
  }, [filters]);

  useEffect(() => {
    const controller = new AbortController();
    setLoaded((state) => ({ ...state, loading: true, ...(before === null ? { rows: [] } : {}) }));
    const query = {
      host: filters.host.trim() || undefined,
      reason: filters.reason || undefined,
      before: before ?? undefined,
    };
    fetchRefusals(query, controller.signal).then(
      (answer) => {
        if (controller.signal.aborted) return;
        setLoaded((state) => {
          if (answer.ok) {
            const rows = before === null ? answer.refusals : [...state.rows, ...answer.refusals];
            return { rows, more: answer.more, problem: null, unsupported: false, loading: false };
          }
          if (answer.unsupported) return { ...state, unsupported: true, loading: false };
          return { ...state, problem: answer.reason, loading: false };
        });
      },
      () => {}, // aborted: a newer query is under way
    );
    return () => controller.abort();
  }, [filters, before]);

  const { rows, more, problem, unsupported, loading } = loaded;
  return (
    <Stack spacing={2}>
      <Typography variant="h5" component="h1">
        Refused
      </Typography>
      <Typography>
        What this server&apos;s inbox refused, newest first: who sent it, why it was refused and
        what came with it.
      </Typography>
      {unsupported ? (
        <Alert severity="info" role="status">
          The upstream server does not report refusals: it keeps no record of what its inbox refused
          (a real cattle_grid answers 404 here).
        </Alert>
      ) : (
        <>
          <Stack direction="row" useFlexGap spacing={2} sx={{ flexWrap: "wrap" }}>
            <TextField
              label="Host"
              size="small"
              value={filters.host}
              onChange={(event) => setFilters({ ...filters, host: event.target.value })}
            />
            <TextField
              select
              label="Reason"
              size="small"
              sx={{ minWidth: 240 }}
              value={filters.reason}
              onChange={(event) => setFilters({ ...filters, reason: event.target.value })}
            >
              <MenuItem value="">Any reason</MenuItem>
              {REFUSAL_REASONS.map((reason) => (
                <MenuItem key={reason.code} value={reason.code}>
                  {reason.label}
                </MenuItem>
              ))}
            </TextField>
          </Stack>
          <Stack direction="row" spacing={1} sx={{ alignItems: "center" }} role="status">
            {loading && <CircularProgress size={16} aria-label="Loading refusals" />}
            <Typography variant="body2">
              {loading
                ? "Loading refusals…"
                : `${rows.length} refused request${rows.length === 1 ? "" : "s"} shown${more ? "; there are older ones" : ""}.`}
            </Typography>
          </Stack>
          {problem && <Alert severity="error">Could not read refusals: {problem}.</Alert>}
          {rows.length > 0 && <ReasonCounts rows={rows} />}
          {!loading && rows.length === 0 && problem === null && (
            <Typography>
              Nothing refused{filters.host || filters.reason ? " matches" : ""}.
            </Typography>
          )}
          {rows.length > 0 && <RefusalTable rows={rows} />}
          {more && (
            <Box>
              <Button
                variant="outlined"
                disabled={loading}
                onClick={() => setBefore(rows[rows.length - 1]!.id)}
              >
                Load more
              </Button>
            </Box>
          )}
        </>
      )}
    </Stack>
  );
}

/** How many of the rows shown were refused for each reason. */
function ReasonCounts({ rows }: { rows: RefusalEntry[] }) {
  const counts = new Map<string, number>();
  for (const row of rows) counts.set(row.reason, (counts.get(row.reason) ?? 0) + 1);
  return (
    <Stack
      component="ul"
      aria-label="Refusals per reason"
      direction="row"
      useFlexGap
      spacing={1}
      sx={{ listStyle: "none", p: 0, m: 0, flexWrap: "wrap" }}
    >
      {[...counts].map(([reason, count]) => (
        <li key={reason}>
          <Chip size="small" label={`${reasonLabel(reason)}: ${count}`} />
        </li>
      ))}
    </Stack>
  );
}

function RefusalTable({ rows }: { rows: RefusalEntry[] }) {
  return (
    <HeadedTable
      label="Refused requests"
      titles={["Time", "Host", "Reason", "Key id", "Status", "Activity", "Body"]}
    >
      {rows.map((row) => {
        const host = refusalHost(row);
        return (
          <TableRow key={row.id}>
            <TableCell sx={noWrap}>
              <Moment at={row.at} />
            </TableCell>
            <TableCell>
              {/* An address (no key, no actor) has no host page. */}
              {(row.keyHost ?? row.actorHost) ? (
                <Link component={RouterLink} to={`/deliveries/${encodeURIComponent(host)}`}>
                  {host}
                </Link>
              ) : (
                host
              )}
            </TableCell>
            <TableCell>
              <div>{row.detail}</div>
              <Typography variant="caption" color="text.secondary">
                {reasonLabel(row.reason)}
              </Typography>
            </TableCell>
            <TableCell sx={{ wordBreak: "break-all" }}>{row.keyId ?? "none"}</TableCell>
            <TableCell>{row.status}</TableCell>
            <TableCell sx={{ wordBreak: "break-all" }}>
              {row.activityType ?? ""} {row.activityId ?? ""}
            </TableCell>
            <TableCell>
              {row.body === null ? (
                "not read"
              ) : (
                <details>
                  <summary>Show body</summary>
                  <Box
                    component="pre"
                    sx={{ whiteSpace: "pre-wrap", wordBreak: "break-all", maxWidth: 480 }}
                  >
                    {row.body}
                  </Box>
                </details>
              )}
            </TableCell>
          </TableRow>
        );
      })}
    </HeadedTable>
  );
}
