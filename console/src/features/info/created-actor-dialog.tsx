import { Button, Dialog, DialogActions, DialogContent, DialogTitle } from "@mui/material";
import { JsonTree } from "../../components/json-tree/index.ts";
import type { FeResponse } from "../../lib/fe-client.ts";

type CreatedActorDialogProps = {
  result: FeResponse<unknown> | null;
  onClose: () => void;
};

/** The answer of Create Actor in a modal tree, 800 px wide (narrower only on smaller screens). */
export function CreatedActorDialog({ result, onClose }: CreatedActorDialogProps) {
  return (
    <Dialog
      open={result !== null}
      onClose={onClose}
      maxWidth={false}
      aria-labelledby="created-actor-title"
      slotProps={{ paper: { sx: { width: 800, maxWidth: "calc(100% - 64px)" } } }}
    >
      <DialogTitle id="created-actor-title">
        {result?.ok ? "Actor created" : `Actor not created (HTTP ${result?.status})`}
      </DialogTitle>
      <DialogContent dividers>{result && <JsonTree data={result.data} />}</DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
