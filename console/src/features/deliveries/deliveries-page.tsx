import { useState } from "react";
import { Alert, Link, Stack, Typography } from "@mui/material";
import { Link as RouterLink } from "react-router";
import { BacklogPanel } from "./backlog-panel.tsx";
import { FailedDeliveries } from "./failed-deliveries.tsx";
import { HostTable } from "./host-table.tsx";
import { RefreshStatus } from "./refresh-status.tsx";
import { StopDeliveryDialog } from "./stop-delivery-dialog.tsx";
import { useHostActions } from "./use-host-actions.ts";
import { useHostHealth } from "./use-host-health.ts";

/** Delivery health per remote host (docs/console-guide.md#deliveries), as Mastodon's "Availability". */
export function DeliveriesPage() {
  const health = useHostHealth();
  const { working, notice, act, redeliver } = useHostActions(health.refresh);
  const [confirming, setConfirming] = useState<string | null>(null);
  const { hosts } = health;

  return (
    <Stack spacing={2}>
      <Typography variant="h5" component="h1">
        Deliveries
      </Typography>
      <Typography>
        Where this account&apos;s actors send, host by host: whether it answers, what failed in the
        last 7 days and what waits in the queue.
      </Typography>
      {health.unsupported ? (
        <Alert severity="info" role="status">
          The upstream server does not report deliveries: it has no delivery health per host (a real
          cattle_grid answers 404 here). What was sent and what failed still shows on the{" "}
          <Link component={RouterLink} to="/stream/outgoing">
            Outgoing
          </Link>{" "}
          and{" "}
          <Link component={RouterLink} to="/stream/error">
            Error
          </Link>{" "}
          streams.
        </Alert>
      ) : (
        <RefreshStatus health={health} />
      )}
      {notice && (
        <Alert severity={notice.ok ? "success" : "error"} role={notice.ok ? "status" : "alert"}>
          {notice.text}
        </Alert>
      )}
      {hosts !== null && hosts.length === 0 && (
        <Stack spacing={0.5}>
          <Typography variant="h6" component="p">
            No deliveries yet
          </Typography>
          <Typography>
            When one of your actors sends an activity to another server, that server&apos;s host
            appears here with its state, its failures and what waits in its queue.
          </Typography>
        </Stack>
      )}
      {!health.unsupported && <BacklogPanel round={health.seenAt?.getTime() ?? 0} />}
      {hosts !== null && hosts.length > 0 && (
        <>
          <HostTable
            hosts={hosts}
            working={working}
            onStop={setConfirming}
            onAct={(host, action) => void act(host, action)}
          />
          {hosts
            .filter((host) => host.failed.length > 0)
            .map((host) => (
              <FailedDeliveries
                key={host.host}
                host={host}
                working={working}
                onRedeliver={(name, delivery) => void redeliver(name, delivery)}
              />
            ))}
        </>
      )}
      <StopDeliveryDialog
        host={confirming}
        onCancel={() => setConfirming(null)}
        onConfirm={(host) => {
          setConfirming(null);
          void act(host, "stop");
        }}
      />
    </Stack>
  );
}
