import type { ReactNode } from "react";
import { Box } from "@mui/material";

/**
 * A description list laid out as two columns: each `<dt>` a muted label, its `<dd>` beside it.
 * Children are `<dt>`/`<dd>` pairs (a pair may sit in a `display: contents` wrapper).
 */
export function DefinitionGrid({ children }: { children: ReactNode }) {
  return (
    <Box
      component="dl"
      sx={{
        display: "grid",
        gridTemplateColumns: "auto 1fr",
        columnGap: 2,
        rowGap: 0.5,
        my: 1,
        "& dt": { color: "text.secondary" },
        "& dd": { m: 0, wordBreak: "break-word" },
      }}
    >
      {children}
    </Box>
  );
}
