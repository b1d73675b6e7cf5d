import type { Key } from "react";
import { TableCell, TableRow, useMediaQuery } from "@mui/material";
import { useTheme } from "@mui/material/styles";
import { HeadedTable } from "../headed-table/headed-table.tsx";
import type { Column } from "./column.ts";
import { RowBlocks } from "./row-blocks.tsx";

export type { Column } from "./column.ts";

/**
 * Rows of `columns`, named `label`. From 600 px a table (wider than its place, it scrolls
 * sideways unless `scroll` is false); below, where a table's columns scrolled out of sight, a
 * list of blocks, one per row, each a labelled field per column, so nothing scrolls sideways.
 */
export function ColumnTable<Row>({
  label,
  rows,
  columns,
  rowKey = (_, index) => index,
  scroll = true,
}: {
  label: string;
  rows: readonly Row[];
  columns: readonly Column<Row>[];
  rowKey?: (row: Row, index: number) => Key;
  scroll?: boolean;
}) {
  const narrow = useMediaQuery(useTheme().breakpoints.down("sm"));
  if (narrow) return <RowBlocks label={label} rows={rows} columns={columns} rowKey={rowKey} />;
  return (
    <HeadedTable label={label} titles={columns.map((column) => column.title)} scroll={scroll}>
      {rows.map((row, index) => (
        <TableRow key={rowKey(row, index)}>
          {columns.map((column, place) => (
            <TableCell key={place} sx={column.cellSx}>
              {column.value(row, index)}
            </TableCell>
          ))}
        </TableRow>
      ))}
    </HeadedTable>
  );
}
