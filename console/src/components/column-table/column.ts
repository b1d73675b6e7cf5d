import type { ReactNode } from "react";
import type { SxProps, Theme } from "@mui/material/styles";

/**
 * One column of a `ColumnTable`: its title (the table's header, the label of the field in each
 * block below 600 px; "" for an unlabelled column such as a row's buttons), its value for a row
 * (null: nothing to show) and how a table cell lays it out.
 */
export type Column<Row> = {
  title: string;
  value: (row: Row, index: number) => ReactNode;
  cellSx?: SxProps<Theme>;
};
