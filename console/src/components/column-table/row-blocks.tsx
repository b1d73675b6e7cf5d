import { Fragment, type Key } from "react";
import { Box } from "@mui/material";
import { DefinitionGrid } from "../definition-grid/definition-grid.tsx";
import type { Column } from "./column.ts";

// Long text (an error, an answer's start, an inbox, a key id) breaks anywhere rather than widen
// the page; so does code, which keeps its line breaks.
const value = { overflowWrap: "anywhere", "& code": { whiteSpace: "pre-wrap" } } as const;

const isEmpty = (shown: unknown) => shown === null || shown === undefined || shown === "";

/**
 * A `ColumnTable` below 600 px: a list named `label`, each row a block of fields labelled as the
 * table's headers are, "—" where the table's cell would be empty. Unlabelled columns (a row's
 * buttons) follow the fields.
 */
export function RowBlocks<Row>({
  label,
  rows,
  columns,
  rowKey,
}: {
  label: string;
  rows: readonly Row[];
  columns: readonly Column<Row>[];
  rowKey: (row: Row, index: number) => Key;
}) {
  const labelled = columns.filter((column) => column.title !== "");
  const unlabelled = columns.filter((column) => column.title === "");
  return (
    <Box component="ol" aria-label={label} sx={{ listStyle: "none", p: 0, m: 0 }}>
      {rows.map((row, index) => (
        <Box
          component="li"
          key={rowKey(row, index)}
          sx={{ borderTop: 1, borderColor: "divider", "&:first-of-type": { borderTop: 0 } }}
        >
          <DefinitionGrid>
            {labelled.map((column) => {
              const shown = column.value(row, index);
              return (
                <Fragment key={column.title}>
                  <dt>{column.title}</dt>
                  <Box component="dd" sx={value}>
                    {isEmpty(shown) ? "—" : shown}
                  </Box>
                </Fragment>
              );
            })}
          </DefinitionGrid>
          {unlabelled.map((column, place) => (
            <Box key={place} sx={{ mb: 1 }}>
              {column.value(row, index)}
            </Box>
          ))}
        </Box>
      ))}
    </Box>
  );
}
