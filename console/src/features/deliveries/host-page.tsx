import { useState } from "react";
import { Alert, Button, CircularProgress, Link, Stack, Typography } from "@mui/material";
import { Link as RouterLink, useParams } from "react-router";
import { Moment } from "../../components/moment/index.ts";
import type { HostDetail } from "../../lib/wire-types.ts";
import { HostAttempts } from "./host-attempts.tsx";
import { HostCheckPanel } from "./host-check-panel.tsx";
import { InboundPanel, OutboundPanel } from "./host-directions.tsx";
import { HostRefusals } from "./host-refusals.tsx";
import { StopDeliveryDialog } from "./stop-delivery-dialog.tsx";
import { describeWork, useHostActions, type HostWork } from "./use-host-actions.ts";
import { useHostDetail } from "./use-host-detail.ts";

/** One host, both directions, at `/deliveries/{host}`. */
export function HostPage() {
  const host = useParams().host ?? "";
  const { detail, problem, loading, round, refresh } = useHostDetail(host);
  const { working, notice, act } = useHostActions(refresh);
  const [confirming, setConfirming] = useState<string | null>(null);

  return (
    <Stack spacing={2}>
      <Typography variant="h5" component="h1" sx={{ wordBreak: "break-all" }}>
        {host}
      </Typography>
      <Typography>
        <Link component={RouterLink} to="/deliveries">
          Deliveries
        </Link>{" "}
        › one host: what it sent here, what was sent to it, and what is wrong with it.
      </Typography>
      <Stack direction="row" spacing={1} sx={{ alignItems: "center" }} role="status">
        {loading && <CircularProgress size={16} aria-label={`Loading ${host}`} />}
        {loading && <Typography variant="body2">Loading {host}…</Typography>}
      </Stack>
      {problem && (
        <Alert severity="error">
          Could not read {host}: {problem}.
        </Alert>
      )}
      {notice && (
        <Alert severity={notice.ok ? "success" : "error"} role={notice.ok ? "status" : "alert"}>
          {notice.text}
        </Alert>
      )}
      {detail && (
        <>
          <Typography>Software: {describeSoftware(detail)}</Typography>
          {detail.hold && (
            <Alert severity="warning">
              Held since <Moment at={detail.hold.since} />: {detail.hold.reason}.{" "}
              {detail.hold.nextProbeAt ? (
                <>
                  Next probe <Moment at={detail.hold.nextProbeAt} />.
                </>
              ) : (
                "No probe planned."
              )}
            </Alert>
          )}
          <Stack direction={{ xs: "column", md: "row" }} spacing={2}>
            <InboundPanel host={host} detail={detail} />
            <OutboundPanel detail={detail} />
          </Stack>
          <HostActionBar
            detail={detail}
            working={working}
            onStop={() => setConfirming(host)}
            onAct={(action) => void act(host, action)}
          />
          <HostCheckPanel host={host} />
          <HostAttempts detail={detail} />
          {detail.inbound.refused7d > 0 && <HostRefusals host={host} round={round} />}
        </>
      )}
      {/* The check needs no record of the host: offered even when nothing was read. */}
      {!detail && problem && <HostCheckPanel host={host} />}
      <StopDeliveryDialog
        host={confirming}
        onCancel={() => setConfirming(null)}
        onConfirm={(name) => {
          setConfirming(null);
          void act(name, "stop");
        }}
      />
    </Stack>
  );
}

function describeSoftware(detail: HostDetail): string {
  const { software } = detail;
  if (!software) return "unknown (no NodeInfo read)";
  return `${software.name}${software.version ? ` ${software.version}` : ""}`;
}

type ActionBarProps = {
  detail: HostDetail;
  working: HostWork | null;
  onStop: () => void;
  onAct: (action: "resume" | "retry") => void;
};

/** Stop or resume delivery to the host, retry now, and a spinner naming the action under way. */
function HostActionBar({ detail, working, onStop, onAct }: ActionBarProps) {
  const { outbound } = detail;
  return (
    <Stack direction="row" useFlexGap spacing={1} sx={{ alignItems: "center", flexWrap: "wrap" }}>
      {outbound &&
        (outbound.state === "stopped" ? (
          <Button variant="outlined" disabled={working !== null} onClick={() => onAct("resume")}>
            Resume delivery
          </Button>
        ) : (
          <Button variant="outlined" color="warning" disabled={working !== null} onClick={onStop}>
            Stop delivery
          </Button>
        ))}
      {outbound && (
        <Button disabled={working !== null} onClick={() => onAct("retry")}>
          Retry now
        </Button>
      )}
      {working && <CircularProgress size={16} aria-label={describeWork(working)} />}
    </Stack>
  );
}
