import { Fragment } from "react";
import { Box } from "@mui/material";
import type { DeliveryAttempt } from "../../lib/wire-types.ts";
import { DefinitionGrid } from "../definition-grid/definition-grid.tsx";
import type { AttemptColumn } from "./attempt-columns.tsx";

// Long text (an error, an answer's start, an inbox) breaks anywhere rather than widen the page.
const longText = { overflowWrap: "anywhere", "& code": { whiteSpace: "pre-wrap" } } as const;

/**
 * The attempts below 600 px, where the table's columns scrolled sideways (Error and Answer out
 * of sight): a list named `label`, each attempt a block of labelled fields, one per column,
 * labelled as the table's headers are; "—" where the table's cell would be empty.
 */
export function AttemptBlocks({
  label,
  attempts,
  columns,
}: {
  label: string;
  attempts: readonly DeliveryAttempt[];
  columns: readonly AttemptColumn[];
}) {
  return (
    <Box component="ol" aria-label={label} sx={{ listStyle: "none", p: 0, m: 0 }}>
      {attempts.map((attempt, index) => (
        <Box
          component="li"
          key={index}
          sx={{ borderTop: 1, borderColor: "divider", "&:first-of-type": { borderTop: 0 } }}
        >
          <DefinitionGrid>
            {columns.map((column) => {
              const value = column.value(attempt, index);
              return (
                <Fragment key={column.title}>
                  <dt>{column.title}</dt>
                  <Box component="dd" sx={column.long ? longText : undefined}>
                    {value === null || value === undefined || value === "" ? "—" : value}
                  </Box>
                </Fragment>
              );
            })}
          </DefinitionGrid>
        </Box>
      ))}
    </Box>
  );
}
