import { useState } from "react";
import {
  Alert,
  Box,
  Button,
  FormControl,
  InputLabel,
  MenuItem,
  Select,
  Stack,
  TextField,
  Typography,
} from "@mui/material";
import { JsonTree } from "../../components/json-tree/index.ts";
import { useUserStore } from "../../lib/user-store.ts";
import type { TriggerRequest } from "../../lib/wire-types.ts";
import { usePerform } from "./use-perform.ts";
import { usePerformDraft } from "./use-perform-draft.ts";

export function PerformPage() {
  const currentActor = useUserStore((state) => state.currentActor);
  const actors = useUserStore((state) => state.actors);
  const methods = useUserStore((state) => state.methodInformations);
  const [chosen, setChosen] = useState("");
  const draft = usePerformDraft();
  const { last, perform } = usePerform();

  if (currentActor === null) return <Typography>Loading...</Typography>;

  const actorName = actors.find((actor) => actor.id === currentActor)?.name;
  const method = methods.some((m) => m.routing_key === chosen) ? chosen : "";
  const payload: TriggerRequest = { actor: currentActor, ...draft.data };

  return (
    <Stack spacing={2}>
      <Typography data-testid="current-actor">
        Acting as {actorName ? `${actorName} (${currentActor})` : currentActor}
      </Typography>
      <FormControl sx={{ maxWidth: 400 }}>
        <InputLabel id="perform-method-label">Method to perform</InputLabel>
        <Select
          labelId="perform-method-label"
          id="perform-method"
          label="Method to perform"
          value={method}
          onChange={(event) => setChosen(event.target.value)}
        >
          {methods.map((m) => (
            <MenuItem key={m.routing_key} value={m.routing_key}>
              {m.routing_key}
            </MenuItem>
          ))}
        </Select>
      </FormControl>
      <TextField
        id="perform-data"
        label="data"
        multiline
        minRows={6}
        value={draft.text}
        onChange={(event) => draft.setText(event.target.value)}
        slotProps={{ htmlInput: { spellCheck: false, style: { fontFamily: "monospace" } } }}
      />
      <Box>
        <Button
          variant="contained"
          disabled={method === ""}
          onClick={() => perform(method, payload)}
        >
          Perform
        </Button>
      </Box>
      {last && (
        <Alert severity={last.result.ok ? "success" : "error"}>
          {last.method}: {last.result.ok ? "accepted" : "failed"} (HTTP {last.result.status})
          {!last.result.ok && `: ${describeDetail(last.result.data)}`}
        </Alert>
      )}
      <Typography variant="h6" component="h2">
        {draft.typing ? "... typing ..." : "Resulting output"}
      </Typography>
      <Box data-testid="perform-preview">
        <JsonTree data={payload} />
      </Box>
    </Stack>
  );
}

/** The reason in an error body: FastAPI's `detail`, or the body itself. */
function describeDetail(body: unknown): string {
  const detail = (body as { detail?: unknown } | null)?.detail;
  return typeof detail === "string" ? detail : JSON.stringify(body);
}
