import { useMediaQuery } from "@mui/material";
import { useTheme } from "@mui/material/styles";
import type { DeliveryAttempt } from "../../lib/wire-types.ts";
import { HeadedTable } from "../headed-table/headed-table.tsx";
import { AttemptBlocks } from "./attempt-blocks.tsx";
import { chooseAttemptColumns, type AttemptColumnsChoice } from "./attempt-columns.tsx";
import { AttemptRow } from "./attempt-row.tsx";

/**
 * Delivery attempts, named `label`: when, where (`withInbox`), the status or "no answer", how
 * long, the error and the start of the answer. A table from 600 px (wider than its place, it
 * scrolls sideways unless `scroll` is false); below, a block of labelled fields per attempt, so
 * nothing needs sideways scrolling.
 */
export function AttemptList({
  label,
  attempts,
  scroll = true,
  ...choice
}: AttemptColumnsChoice & {
  label: string;
  attempts: readonly DeliveryAttempt[];
  scroll?: boolean;
}) {
  const narrow = useMediaQuery(useTheme().breakpoints.down("sm"));
  const columns = chooseAttemptColumns(choice);
  if (narrow) return <AttemptBlocks label={label} attempts={attempts} columns={columns} />;
  return (
    <HeadedTable label={label} titles={columns.map((column) => column.title)} scroll={scroll}>
      {attempts.map((attempt, index) => (
        <AttemptRow key={index} attempt={attempt} index={index} columns={columns} />
      ))}
    </HeadedTable>
  );
}
