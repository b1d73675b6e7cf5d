import type { ReactNode } from "react";
import { Box, Link, Paper, Typography } from "@mui/material";
import { Link as RouterLink } from "react-router";
import { DefinitionGrid } from "../../components/definition-grid/definition-grid.tsx";
import { Moment } from "../../components/moment/index.ts";
import { fateOfHost } from "../../lib/delivery-fate.ts";
import { reasonLabel } from "../../lib/refusal-client.ts";
import type { HostDetail } from "../../lib/wire-types.ts";

function Direction({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper variant="outlined" component="section" aria-label={title} sx={{ p: 1.5, flex: 1 }}>
      <Typography variant="h6" component="h2">
        {title}
      </Typography>
      <DefinitionGrid>{children}</DefinitionGrid>
    </Paper>
  );
}

/** What the host sent here: accepted and refused, the refusals linked to "Refused". */
export function InboundPanel({ host, detail }: { host: string; detail: HostDetail }) {
  const { inbound } = detail;
  return (
    <Direction title="Inbound (from it)">
      <dt>Last accepted</dt>
      <dd>
        <Moment at={inbound.lastAcceptedAt} />
      </dd>
      <dt>Last refused</dt>
      <dd>
        <Moment at={inbound.lastRefusedAt} />
      </dd>
      <dt>Accepted (7 days)</dt>
      <dd>{inbound.accepted7d}</dd>
      <dt>Refused (7 days)</dt>
      <dd>
        {inbound.refused7d > 0 ? (
          <Link component={RouterLink} to={`/refused?host=${encodeURIComponent(host)}`}>
            {inbound.refused7d}
          </Link>
        ) : (
          0
        )}
      </dd>
      {Object.entries(inbound.refusedByReason).map(([reason, count]) => (
        <Box component="div" key={reason} sx={{ display: "contents" }}>
          <dt>Refused: {reasonLabel(reason)}</dt>
          <dd>{count}</dd>
        </Box>
      ))}
    </Direction>
  );
}

/** What was sent to the host: its delivery state, last outcomes and queue. */
export function OutboundPanel({ detail }: { detail: HostDetail }) {
  const { outbound } = detail;
  return (
    <Direction title="Outbound (to it)">
      {outbound ? (
        <>
          <dt>State</dt>
          <dd>{fateOfHost({ ...outbound, hold: detail.hold })}</dd>
          <dt>Last delivered</dt>
          <dd>
            <Moment at={outbound.lastSuccessAt} />
          </dd>
          <dt>Last failed</dt>
          <dd>
            <Moment at={outbound.lastFailureAt} />
          </dd>
          {outbound.lastError && (
            <>
              <dt>Last error</dt>
              <dd>{outbound.lastError}</dd>
            </>
          )}
          <dt>Failures (7 days)</dt>
          <dd>{outbound.failures7d}</dd>
          <dt>Waiting</dt>
          <dd>{outbound.queued}</dd>
        </>
      ) : (
        <>
          <dt>Sent</dt>
          <dd>nothing yet</dd>
        </>
      )}
    </Direction>
  );
}
