import { Moment } from "../../components/moment/index.ts";
import { Box, Button, LinearProgress, Paper, Typography } from "@mui/material";
import type { DiffLine } from "./diff-json.ts";
import type { RecentLookup } from "./lookup-history.ts";
import { useJsonDiff } from "./use-json-diff.ts";

type ComparisonProps = { before: RecentLookup; after: RecentLookup; onClose: () => void };

/** The difference of two recent lookups, older first: one line per path that changed. */
export function LookupComparison({ before, after, onClose }: ComparisonProps) {
  const { diff, pending } = useJsonDiff(before.document, after.document);
  return (
    <Paper component="section" aria-label="Comparison" variant="outlined" sx={{ p: 2, mt: 3 }}>
      <Box sx={{ display: "flex", alignItems: "baseline", gap: 1, flexWrap: "wrap" }}>
        <Typography variant="h6" component="h2" sx={{ flexGrow: 1 }}>
          Differences
        </Typography>
        <Button onClick={onClose}>Close</Button>
      </Box>
      <Typography variant="body2" sx={{ wordBreak: "break-all" }}>
        From {before.uri} (<Moment at={before.at} />) to {after.uri} (
        <Moment at={after.at} />)
      </Typography>
      {pending && <LinearProgress aria-label="Comparing" sx={{ my: 1 }} />}
      {diff && diff.lines.length === 0 && <Typography sx={{ mt: 1 }}>No differences</Typography>}
      {diff && diff.lines.length > 0 && (
        <Box
          component="ul"
          aria-label="Changed paths"
          sx={{
            listStyle: "none",
            p: 0,
            mt: 1,
            fontFamily: "monospace",
            fontSize: "0.8125rem",
            overflowWrap: "anywhere",
          }}
        >
          {diff.lines.map((line, index) => (
            <Box component="li" key={index} sx={{ color: colourOf(line) }}>
              {describeLine(line)}
            </Box>
          ))}
          {diff.more > 0 && <li>… and {diff.more} more</li>}
        </Box>
      )}
    </Paper>
  );
}

export function describeLine(line: DiffLine): string {
  if (line.kind === "added") return `added ${line.path}: ${line.after}`;
  if (line.kind === "removed") return `removed ${line.path}: ${line.before}`;
  return `changed ${line.path}: ${line.before} → ${line.after}`;
}

function colourOf(line: DiffLine): string {
  return line.kind === "added"
    ? "success.main"
    : line.kind === "removed"
      ? "error.main"
      : "text.primary";
}
