import { TableCell, TableRow } from "@mui/material";
import type { DeliveryAttempt } from "../../lib/wire-types.ts";
import type { AttemptColumn } from "./attempt-columns.tsx";

/** One delivery attempt as a table row: a cell per column, empty where it has nothing. */
export function AttemptRow({
  attempt,
  index,
  columns,
}: {
  attempt: DeliveryAttempt;
  index: number;
  columns: readonly AttemptColumn[];
}) {
  return (
    <TableRow>
      {columns.map((column) => (
        <TableCell key={column.title} sx={column.cellSx}>
          {column.value(attempt, index)}
        </TableCell>
      ))}
    </TableRow>
  );
}
