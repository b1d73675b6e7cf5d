import { useMemo, useState } from "react";
import { Box, Button, Stack, TextField, Typography } from "@mui/material";
import { useSearchParams } from "react-router";
import { useActorHandles } from "../../lib/actor-handles.ts";
import { JsonTree } from "../../components/json-tree/index.ts";
import { usePerformDraftStore } from "../../lib/perform-draft-store.ts";
import type { PerformCall } from "../../lib/perform-history-store.ts";
import { useUserStore } from "../../lib/user-store.ts";
import type { TriggerRequest } from "../../lib/wire-types.ts";
import { ConfirmDeleteDialog } from "./confirm-delete-dialog.tsx";
import { DataCheck } from "./data-check.tsx";
import { looksLikeBareActivity, otherActorIn, putUnderData, takesData } from "./data-help.ts";
import { exampleFor } from "./method-examples.ts";
import { MethodPicker } from "./method-picker.tsx";
import { PerformHistory } from "./perform-history.tsx";
import { PerformResult } from "./perform-result.tsx";
import { checkAgainstSchema, schemaOf } from "./schema-check.ts";
import { usePerform } from "./use-perform.ts";
import { usePerformDraft } from "./use-perform-draft.ts";

const DELETE_ACTOR = "delete_actor";

export function PerformPage() {
  const currentActor = useUserStore((state) => state.currentActor);
  const actors = useUserStore((state) => state.actors);
  const methods = useUserStore((state) => state.methodInformations);
  const setCurrentActor = useUserStore((state) => state.setCurrentActor);
  const chosen = usePerformDraftStore((state) => state.method);
  const setMethod = usePerformDraftStore((state) => state.setMethod);
  const draft = usePerformDraft();
  const { sending, latest, calls, perform } = usePerform();
  const [params] = useSearchParams();
  const handles = useActorHandles((state) => state.handles);
  // A delete_actor call waiting for its confirmation.
  const [confirming, setConfirming] = useState<TriggerRequest | null>(null);
  const info = methods.find((m) => m.routing_key === chosen);
  const method = info ? chosen : "";
  const schema = useMemo(() => schemaOf(info), [info]);
  // Checked before sending; nothing is sent while the box fails its method's schema.
  const check = useMemo(
    () => (method === "" || draft.typing ? null : checkAgainstSchema(schema, draft.data)),
    [method, schema, draft.typing, draft.data],
  );

  if (currentActor === null) return <Typography>Loading...</Typography>;

  const actorName = actors.find((actor) => actor.id === currentActor)?.name;
  const payload: TriggerRequest = { actor: currentActor, ...draft.data };
  const example = method === "" ? null : exampleFor(info, method, currentActor);

  const nameOf = (id: string) => handles[id] ?? actors.find((actor) => actor.id === id)?.name ?? id;
  const run = (name: string, body: TriggerRequest) => {
    if (name === DELETE_ACTOR) setConfirming(body);
    else void perform(name, body);
  };

  const edit = (call: PerformCall) => {
    const { actor, ...data } = call.body;
    // The call is edited as it was made, so as the actor that made it (when still on the account).
    if (actors.some((a) => a.id === actor)) setCurrentActor(actor);
    setMethod(call.method);
    draft.setText(JSON.stringify(data, null, 2));
  };

  return (
    <Stack spacing={2}>
      <Typography data-testid="current-actor">
        Acting as {actorName ? `${actorName} (${currentActor})` : currentActor}
      </Typography>
      <MethodPicker
        methods={methods}
        method={method}
        onChange={setMethod}
        onInsertExample={example && (() => draft.setText(JSON.stringify(example, null, 2)))}
      />
      <TextField
        id="perform-data"
        label="data"
        multiline
        minRows={6}
        value={draft.text}
        onChange={(event) => draft.setText(event.target.value)}
        error={draft.problem !== null}
        helperText={draft.problem}
        slotProps={{ htmlInput: { spellCheck: false, style: { fontFamily: "monospace" } } }}
      />
      {method !== "" && !draft.typing && (
        <DataCheck
          method={method}
          check={check}
          onPutUnderData={
            looksLikeBareActivity(draft.data) && takesData(method, schema)
              ? () => draft.setText(JSON.stringify(putUnderData(draft.data), null, 2))
              : null
          }
          otherActor={otherActorIn(draft.data, currentActor)}
          actingName={actorName ? `${actorName} (${currentActor})` : currentActor}
        />
      )}
      <Box>
        <Button
          variant="contained"
          disabled={method === "" || draft.typing || check?.kind === "failed" || sending !== null}
          onClick={() => run(method, payload)}
        >
          Perform
        </Button>
      </Box>
      <PerformResult sending={sending} latest={latest} callId={params.get("call")} calls={calls} />
      <Typography variant="h6" component="h2">
        {draft.typing ? "... typing ..." : "Resulting output"}
      </Typography>
      <Box data-testid="perform-preview">
        <JsonTree data={payload} />
      </Box>
      <PerformHistory
        actors={actors}
        busy={sending !== null}
        onRunAgain={(call) => run(call.method, call.body)}
        onEdit={edit}
      />
      <ConfirmDeleteDialog
        actor={confirming && nameOf(confirming.actor)}
        onCancel={() => setConfirming(null)}
        onConfirm={() => {
          if (confirming) void perform(DELETE_ACTOR, confirming);
          setConfirming(null);
        }}
      />
    </Stack>
  );
}
