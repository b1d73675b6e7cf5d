import { Box, Paper, Stack, Typography } from "@mui/material";
import { DefinitionGrid } from "../../components/definition-grid/definition-grid.tsx";
import { describeDeliveryFate } from "../../lib/delivery-fate.ts";
import { AttemptsTimeline } from "./attempts-timeline.tsx";
import {
  DeliveryActions,
  describeInbox,
  describeWhen,
  type DeliveryControls,
} from "./delivery-parts.tsx";

/**
 * Below 600 px the seven columns of the Deliveries table do not fit (it scrolled sideways, its
 * buttons out of sight), so each recipient inbox becomes a card: the inbox as its title, the
 * table's other columns as labelled fields, its buttons under them and its attempts inside it
 * (a block each, components/attempt-list).
 */
export function DeliveryCards({
  labelledBy,
  deliveries,
}: {
  labelledBy: string;
  deliveries: DeliveryControls[];
}) {
  return (
    <Box component="ul" aria-labelledby={labelledBy} sx={{ listStyle: "none", p: 0, m: 0 }}>
      {deliveries.map((controls) => {
        const { delivery, shown, timelineId } = controls;
        const inbox = describeInbox(delivery);
        return (
          <Paper
            component="li"
            variant="outlined"
            key={delivery.inbox}
            aria-label={inbox}
            sx={{ p: 1.5, mb: 1.5 }}
          >
            <Typography sx={{ fontWeight: 600, overflowWrap: "anywhere" }}>{inbox}</Typography>
            <DefinitionGrid>
              <dt>Delivery</dt>
              <dd>{describeDeliveryFate(delivery)}</dd>
              <dt>Status</dt>
              <dd>{delivery.status ?? "—"}</dd>
              <dt>Attempts</dt>
              <dd>{delivery.attempts}</dd>
              <dt>Last error</dt>
              <dd style={{ overflowWrap: "anywhere" }}>{delivery.lastError ?? "—"}</dd>
              <dt>When</dt>
              <dd>{describeWhen(delivery)}</dd>
            </DefinitionGrid>
            <Stack direction="row" useFlexGap sx={{ alignItems: "center", flexWrap: "wrap" }}>
              <DeliveryActions {...controls} />
            </Stack>
            {shown && (
              // At this width the timeline is a block per attempt, as narrow as the card.
              <Box id={timelineId} sx={{ mt: 1 }}>
                <AttemptsTimeline delivery={delivery} />
              </Box>
            )}
          </Paper>
        );
      })}
    </Box>
  );
}
