import type { DeliveryAttempt } from "../../lib/wire-types.ts";
import { ColumnTable } from "../column-table/column-table.tsx";
import { chooseAttemptColumns, type AttemptColumnsChoice } from "./attempt-columns.tsx";

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
  const columns = chooseAttemptColumns(choice);
  return <ColumnTable label={label} rows={attempts} columns={columns} scroll={scroll} />;
}
