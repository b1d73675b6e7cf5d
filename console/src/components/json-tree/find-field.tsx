import type { KeyboardEvent } from "react";
import { Box, TextField, Typography } from "@mui/material";

type FindFieldProps = {
  query: string;
  /** Matches of the search shown; null while there is none. */
  count: number | null;
  onQuery: (text: string) => void;
  /** Moves to the next (1) or previous (-1) match. */
  onStep: (step: number) => void;
};

/** "Find in document": Enter goes to the next match, Shift+Enter to the previous one. */
export function FindField({ query, count, onQuery, onStep }: FindFieldProps) {
  function onKeyDown(event: KeyboardEvent) {
    if (event.key !== "Enter") return;
    event.preventDefault();
    onStep(event.shiftKey ? -1 : 1);
  }
  return (
    <Box sx={{ display: "flex", alignItems: "center", gap: 2, mb: 1, flexWrap: "wrap" }}>
      <TextField
        label="Find in document"
        size="small"
        value={query}
        onChange={(event) => onQuery(event.target.value)}
        onKeyDown={onKeyDown}
        sx={{ minWidth: 200, flex: "0 1 320px" }}
      />
      <Typography role="status" variant="body2" color="text.secondary">
        {count === null ? "" : `${count} ${count === 1 ? "match" : "matches"}`}
      </Typography>
    </Box>
  );
}
