import { useState } from "react";
import {
  Button,
  FormControl,
  InputLabel,
  LinearProgress,
  MenuItem,
  Paper,
  Select,
  Stack,
  TextField,
  Typography,
} from "@mui/material";

type CreateActorPanelProps = {
  baseUrls: string[];
  /** A creation is under way: the button waits and a progress bar says so. */
  creating: boolean;
  onCreate: (baseUrl: string, handle: string) => void;
  /** Why the server refused the last handle (a 409 or 422), shown by the field. */
  refusal?: string | null;
  /** Typing after a refusal clears it. */
  onHandleChange?: () => void;
};

export function CreateActorPanel(props: CreateActorPanelProps) {
  const { baseUrls, creating, onCreate, refusal = null, onHandleChange } = props;
  const [chosen, setChosen] = useState("");
  const [handle, setHandle] = useState("");
  // Follows the list when the chosen base URL disappears from a refreshed info.
  const baseUrl = baseUrls.includes(chosen) ? chosen : baseUrls[0]!;

  return (
    <Paper variant="outlined" sx={{ p: 2, mb: 3 }}>
      <Typography variant="h6" component="h2" gutterBottom>
        Create actor
      </Typography>
      <Stack direction="row" useFlexGap spacing={2} sx={{ alignItems: "center", flexWrap: "wrap" }}>
        <FormControl sx={{ minWidth: 240, maxWidth: "100%" }}>
          <InputLabel id="create-actor-base-url-label">Base Url</InputLabel>
          <Select
            labelId="create-actor-base-url-label"
            id="create-actor-base-url"
            label="Base Url"
            value={baseUrl}
            onChange={(event) => setChosen(event.target.value)}
          >
            {baseUrls.map((url) => (
              <MenuItem key={url} value={url}>
                {url}
              </MenuItem>
            ))}
          </Select>
        </FormControl>
        <TextField
          id="create-actor-handle"
          label="handle"
          value={handle}
          onChange={(event) => {
            setHandle(event.target.value);
            onHandleChange?.();
          }}
          error={refusal !== null}
          helperText={refusal}
        />
        <Button variant="contained" disabled={creating} onClick={() => onCreate(baseUrl, handle)}>
          Create Actor
        </Button>
      </Stack>
      {creating && <LinearProgress aria-label="Creating actor" sx={{ mt: 2 }} />}
    </Paper>
  );
}
