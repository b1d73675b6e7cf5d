import { useState } from "react";
import { Alert, Box, Button, CircularProgress, Stack, Typography } from "@mui/material";
import { useSearchParams } from "react-router";
import { RefusalFilterFields } from "./refusal-filters.tsx";
import { ReasonCounts, RefusalTable } from "./refusal-table.tsx";
import { useRefusals, type RefusalFilters } from "./use-refusals.ts";

/** What the inbox refused, newest first. */
export function RefusedPage() {
  // A host's page links here with ?host= (its refusals); the filters start from it.
  const [params] = useSearchParams();
  const [filters, setFilters] = useState<RefusalFilters>({
    host: params.get("host") ?? "",
    reason: params.get("reason") ?? "",
  });
  const { rows, more, problem, unsupported, loading, loadMore } = useRefusals(filters);
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
          <RefusalFilterFields filters={filters} onChange={setFilters} />
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
              <Button variant="outlined" disabled={loading} onClick={loadMore}>
                Load more
              </Button>
            </Box>
          )}
        </>
      )}
    </Stack>
  );
}
