import type { Column } from "../column-table/column-table.tsx";
import type { DeliveryAttempt } from "../../lib/wire-types.ts";
import { Moment } from "../moment/index.ts";

/** Which columns a list of attempts has besides time, status, duration, error and answer. */
export type AttemptColumnsChoice = {
  /** A "#" column first: each attempt's place in a delivery's timeline. */
  numbered?: boolean;
  /** An "Inbox" column after the time (a host's attempts go to several inboxes). */
  withInbox?: boolean;
};

/** One column of the attempts table, and one labelled field of an attempt's block below 600 px. */
export type AttemptColumn = Column<DeliveryAttempt>;

export function chooseAttemptColumns({
  numbered = false,
  withInbox = false,
}: AttemptColumnsChoice): AttemptColumn[] {
  return [
    ...(numbered ? [{ title: "#", value: (_: DeliveryAttempt, index: number) => index + 1 }] : []),
    {
      title: "Time",
      value: (attempt) => <Moment at={attempt.at} />,
      cellSx: { whiteSpace: "nowrap" },
    },
    ...(withInbox
      ? [
          {
            title: "Inbox",
            value: (attempt: DeliveryAttempt) => attempt.inbox,
            cellSx: { wordBreak: "break-all" },
          },
        ]
      : []),
    { title: "Status", value: (attempt) => attempt.status ?? "no answer" },
    { title: "Duration (ms)", value: (attempt) => attempt.durationMs },
    {
      title: "Error",
      value: (attempt) => attempt.error,
      cellSx: { wordBreak: "break-word" },
    },
    {
      title: "Answer",
      value: (attempt) => (attempt.response ? <code>{attempt.response}</code> : null),
      cellSx: { "& code": { whiteSpace: "pre-wrap", wordBreak: "break-all" } },
    },
  ];
}
