import { lazy, Suspense, useState } from "react";
import { Alert, LinearProgress, Typography } from "@mui/material";
import { SignedOutNotice } from "../../components/signed-out/index.ts";
import type { FeError } from "../../lib/fe-client.ts";
import { readRecordedHistory } from "../../lib/server-capabilities.ts";
import { useUserStore } from "../../lib/user-store.ts";
import { ActivityBoundary, ActivityFigure, ActivityLoading } from "./activity-figure.tsx";
import { CreateActorPanel } from "./create-actor-panel.tsx";
import { readHandleRefusal } from "./handle-refusal.ts";
import { useAccountInfo } from "./use-account-info.ts";
import { useCreateActor } from "./use-create-actor.ts";
import { UnservedActors } from "./unserved-actors.tsx";

// The chart, its data and uPlot, and Cattle Drive's doors and clients arrive in their own chunk,
// after the page itself.
const InfoPanels = lazy(() => import("./info-panels.tsx"));
// The account's JSON tree too: it and its virtualised rows (about 10 KB gzip) come with the
// screens that show documents, and the first load stays within its budget (e2e/first-load).
const JsonTree = lazy(() =>
  import("../../components/json-tree/index.ts").then((module) => ({ default: module.JsonTree })),
);
// The modal of Create Actor too: its chunk loads from the click on, while the server works.
const CreatedActorDialog = lazy(() =>
  import("./created-actor-dialog.tsx").then((module) => ({ default: module.CreatedActorDialog })),
);

export function InfoPage() {
  const token = useUserStore((state) => state.token);
  const { info, error, loading, refresh } = useAccountInfo();
  const creation = useCreateActor(refresh);
  // A refused handle is said by the field; the modal is for created actors and other failures.
  const refusal =
    creation.result && readHandleRefusal(creation.result, creation.request ?? undefined);
  // Kept mounted after the first creation, so closing the modal keeps its exit transition.
  const [dialogMounted, setDialogMounted] = useState(false);
  if (!dialogMounted && (creation.pending || creation.result !== null)) setDialogMounted(true);

  if (!token) return <SignedOutNotice />;
  if (loading) {
    return (
      <>
        <Typography>Loading...</Typography>
        <LinearProgress aria-label="Loading the account info" sx={{ mt: 1 }} />
      </>
    );
  }
  if (!info) return <Alert severity="error">{describeFailure(error)}</Alert>;

  return (
    <>
      <UnservedActors actors={info.actorsNotServed} />
      {info.baseUrls.length > 0 ? (
        <CreateActorPanel
          baseUrls={info.baseUrls}
          creating={creation.pending}
          onCreate={creation.create}
          refusal={refusal}
          onHandleChange={refusal ? creation.dismiss : undefined}
        />
      ) : (
        <NoBaseUrlHint />
      )}
      {dialogMounted && (
        // While the server still works, "Creating actor" already shows the wait.
        <Suspense
          fallback={
            creation.result && <LinearProgress aria-label="Opening the result" sx={{ mb: 2 }} />
          }
        >
          <CreatedActorDialog
            result={refusal ? null : creation.result}
            onClose={creation.dismiss}
          />
        </Suspense>
      )}
      <HistorySource corralProxy={(info as { corralProxy?: unknown }).corralProxy} />
      <ActivityBoundary what="Activity and Cattle Drive">
        <Suspense
          fallback={
            <ActivityFigure>
              <ActivityLoading />
            </ActivityFigure>
          }
        >
          <InfoPanels accountName={info.accountName} />
        </Suspense>
      </ActivityBoundary>
      <Suspense
        fallback={<LinearProgress aria-label="Loading the account's JSON" sx={{ mt: 1 }} />}
      >
        <JsonTree data={info} />
      </Suspense>
    </>
  );
}

function describeFailure(error: FeError | null): string {
  const detail = (error?.data as { detail?: unknown } | null)?.detail;
  const reason = typeof detail === "string" ? detail : JSON.stringify(error?.data);
  // A server that is away says so in the same words as every page; it is asked again when back.
  if (error?.unreachable)
    return `Could not load the account info: ${reason}. Asking again when it answers.`;
  return `Could not load the account info (HTTP ${error?.status}): ${reason}`;
}

/** In front of a Corral proxy that records the upstream's events: where the history comes from. */
function HistorySource({ corralProxy }: { corralProxy: unknown }) {
  const recorded = readRecordedHistory(corralProxy);
  if (!recorded) return null;
  return (
    <Alert severity={recorded.recording ? "info" : "warning"} sx={{ mb: 3 }}>
      History: {recorded.source}
      {!recorded.recording &&
        " Recording waits: the broker connection is down, and Corral connects again by itself (its /readyz says why)."}
    </Alert>
  );
}

/**
 * Without a base URL the create-actor panel is absent (docs/console-guide.md#info); say why, and the
 * remedy.
 */
function NoBaseUrlHint() {
  return (
    <Alert severity="info" sx={{ mb: 3 }}>
      This account cannot create actors: the server allows it no base URL. Base URLs are allowed to
      admin accounts and to accounts with a permission for their host (
      <code>corral account new NAME PASSWORD --admin</code> or <code>--permission HOST</code>).
    </Alert>
  );
}
