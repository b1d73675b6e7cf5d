import type { ReactNode } from "react";
import { Table, TableBody, TableCell, TableContainer, TableHead, TableRow } from "@mui/material";

const noWrap = { whiteSpace: "nowrap" } as const;

/**
 * A small table named `label` (its accessible name), with a row of column titles that never wrap
 * and `children` as its body rows; wider than its place, it scrolls sideways (`scroll`).
 */
export function HeadedTable({
  label,
  titles,
  children,
  scroll = true,
}: {
  label: string;
  titles: readonly string[];
  children: ReactNode;
  scroll?: boolean;
}) {
  const table = (
    <Table size="small" aria-label={label}>
      <TableHead>
        <TableRow>
          {titles.map((title) => (
            <TableCell key={title} sx={noWrap}>
              {title}
            </TableCell>
          ))}
        </TableRow>
      </TableHead>
      <TableBody>{children}</TableBody>
    </Table>
  );
  return scroll ? <TableContainer sx={{ overflowX: "auto" }}>{table}</TableContainer> : table;
}
