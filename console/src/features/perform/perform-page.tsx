import { Box, Button, Stack, TextField, Typography } from "@mui/material";
import { useSearchParams } from "react-router";
import { JsonTree } from "../../components/json-tree/index.ts";
import { usePerformDraftStore } from "../../lib/perform-draft-store.ts";
import type { PerformCall } from "../../lib/perform-history-store.ts";
import { useUserStore } from "../../lib/user-store.ts";
import type { TriggerRequest } from "../../lib/wire-types.ts";
import { exampleFor } from "./method-examples.ts";
import { MethodPicker } from "./method-picker.tsx";
import { PerformHistory } from "./perform-history.tsx";
import { PerformResult } from "./perform-result.tsx";
import { usePerform } from "./use-perform.ts";
import { usePerformDraft } from "./use-perform-draft.ts";

export function PerformPage() {
  const currentActor = useUserStore((state) => state.currentActor);
  const actors = useUserStore((state) => state.actors);
  const methods = useUserStore((state) => state.methodInformations);
  const setCurrentActor = useUserStore((state) => state.setCurrentActor);
  const chosen = usePerformDraftStore((state) => state.method);
  const setMethod = usePerformDraftStore((state) => state.setMethod);
  const draft = usePerformDraft();
  const { sending, latest, perform } = usePerform();
  const [params] = useSearchParams();

  if (currentActor === null) return <Typography>Loading...</Typography>;

  const actorName = actors.find((actor) => actor.id === currentActor)?.name;
  const info = methods.find((m) => m.routing_key === chosen);
  const method = info ? chosen : "";
  const payload: TriggerRequest = { actor: currentActor, ...draft.data };
  const example = method === "" ? null : exampleFor(info, method, currentActor);

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
      <Box>
        <Button
          variant="contained"
          disabled={method === "" || draft.typing || sending !== null}
          onClick={() => void perform(method, payload)}
        >
          Perform
        </Button>
      </Box>
      <PerformResult sending={sending} latest={latest} callId={params.get("call")} />
      <Typography variant="h6" component="h2">
        {draft.typing ? "... typing ..." : "Resulting output"}
      </Typography>
      <Box data-testid="perform-preview">
        <JsonTree data={payload} />
      </Box>
      <PerformHistory
        actors={actors}
        busy={sending !== null}
        onRunAgain={(call) => void perform(call.method, call.body)}
        onEdit={edit}
      />
    </Stack>
  );
}
