import { Stack, Typography } from "@mui/material";
import { AttemptList } from "../../components/attempt-list/attempt-list.tsx";
import { shortReason } from "../../lib/delivery-fate.ts";
import type { HostDetail } from "../../lib/wire-types.ts";

/** The newest delivery attempts to the host, or why there are none. */
export function HostAttempts({ detail }: { detail: HostDetail }) {
  return (
    <Stack spacing={1} component="section" aria-label="Delivery attempts">
      <Typography variant="h6" component="h2">
        Delivery attempts
      </Typography>
      {detail.attempts.length === 0 ? (
        <Typography>{describeNoAttempts(detail)}</Typography>
      ) : (
        <AttemptList label="Newest attempts" attempts={detail.attempts} withInbox />
      )}
    </Stack>
  );
}

/**
 * Why the attempts list is empty, agreeing with the counts beside it: failures that were never
 * sent (the actor or its inbox could not be found) count as failures but are no attempts.
 */
function describeNoAttempts(detail: HostDetail): string {
  const failures = detail.outbound?.failures7d ?? 0;
  if (failures === 0) return `No delivery to ${detail.host} was attempted yet.`;
  const reason = detail.outbound?.lastError ?? detail.lastError;
  const count = failures === 1 ? "its 1 failure" : `its ${failures} failures`;
  return `Nothing was sent to ${detail.host}: ${count} in 7 days ${failures === 1 ? "was a delivery" : "were deliveries"} not sent${reason ? `: ${shortReason(reason)}` : ""}.`;
}
