import { Alert, Typography } from "@mui/material";
import { JsonTree } from "../../components/json-tree/index.ts";
import { useUserStore } from "../../lib/user-store.ts";
import { CreateActorPanel } from "./create-actor-panel.tsx";
import { CreatedActorDialog } from "./created-actor-dialog.tsx";
import { useAccountInfo } from "./use-account-info.ts";
import { useCreateActor } from "./use-create-actor.ts";

export function InfoPage() {
  const token = useUserStore((state) => state.token);
  const { info, error, loading, refresh } = useAccountInfo();
  const creation = useCreateActor(refresh);

  if (!token) return <Typography>Please login</Typography>;
  if (loading) return <Typography>Loading...</Typography>;
  if (!info) return <Alert severity="error">{describeFailure(error?.status, error?.data)}</Alert>;

  return (
    <>
      {info.baseUrls.length > 0 && (
        <CreateActorPanel baseUrls={info.baseUrls} onCreate={creation.create} />
      )}
      <CreatedActorDialog result={creation.result} onClose={creation.dismiss} />
      <JsonTree data={info} />
    </>
  );
}

function describeFailure(status: number | undefined, body: unknown): string {
  const detail = (body as { detail?: unknown } | null)?.detail;
  const reason = typeof detail === "string" ? detail : JSON.stringify(body);
  return `Could not load the account info (${status ? `HTTP ${status}` : "no answer"}): ${reason}`;
}
