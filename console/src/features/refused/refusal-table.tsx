import { Box, Chip, Link, Stack, TableCell, TableRow, Typography } from "@mui/material";
import { Link as RouterLink } from "react-router";
import { HeadedTable } from "../../components/headed-table/headed-table.tsx";
import { Moment } from "../../components/moment/index.ts";
import { reasonLabel, refusalHost, type RefusalEntry } from "../../lib/refusal-client.ts";

const noWrap = { whiteSpace: "nowrap" } as const;

/** How many of the rows shown were refused for each reason. */
export function ReasonCounts({ rows }: { rows: RefusalEntry[] }) {
  const counts = new Map<string, number>();
  for (const row of rows) counts.set(row.reason, (counts.get(row.reason) ?? 0) + 1);
  return (
    <Stack
      component="ul"
      aria-label="Refusals per reason"
      direction="row"
      useFlexGap
      spacing={1}
      sx={{ listStyle: "none", p: 0, m: 0, flexWrap: "wrap" }}
    >
      {[...counts].map(([reason, count]) => (
        <li key={reason}>
          <Chip size="small" label={`${reasonLabel(reason)}: ${count}`} />
        </li>
      ))}
    </Stack>
  );
}

export function RefusalTable({ rows }: { rows: RefusalEntry[] }) {
  return (
    <HeadedTable
      label="Refused requests"
      titles={["Time", "Host", "Reason", "Key id", "Status", "Activity", "Body"]}
    >
      {rows.map((row) => {
        const host = refusalHost(row);
        return (
          <TableRow key={row.id}>
            <TableCell sx={noWrap}>
              <Moment at={row.at} />
            </TableCell>
            <TableCell>
              {/* An address (no key, no actor) has no host page. */}
              {(row.keyHost ?? row.actorHost) ? (
                <Link component={RouterLink} to={`/deliveries/${encodeURIComponent(host)}`}>
                  {host}
                </Link>
              ) : (
                host
              )}
              {/* Without a key, nothing proves the actor's host: anyone can write it in a body. */}
              {row.keyHost === null && row.actorHost !== null && (
                <Typography variant="caption" color="text.secondary" component="div">
                  as its unsigned body claims; sent from {row.client}
                </Typography>
              )}
            </TableCell>
            <TableCell>
              <div>{row.detail}</div>
              <Typography variant="caption" color="text.secondary">
                {reasonLabel(row.reason)}
              </Typography>
            </TableCell>
            <TableCell sx={{ wordBreak: "break-all" }}>{row.keyId ?? "none"}</TableCell>
            <TableCell>{row.status}</TableCell>
            <TableCell sx={{ wordBreak: "break-all" }}>
              {row.activityType ?? ""} {row.activityId ?? ""}
            </TableCell>
            <TableCell>
              {row.body === null ? (
                "not read"
              ) : (
                <details>
                  <summary>Show body</summary>
                  <Box
                    component="pre"
                    sx={{ whiteSpace: "pre-wrap", wordBreak: "break-all", maxWidth: 480 }}
                  >
                    {row.body}
                  </Box>
                </details>
              )}
            </TableCell>
          </TableRow>
        );
      })}
    </HeadedTable>
  );
}
