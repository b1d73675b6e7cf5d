import { useId } from "react";
import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
} from "@mui/material";

type Props = {
  /** The actor about to be deleted, as the console names it, or null while closed. */
  actor: string | null;
  onConfirm: () => void;
  onCancel: () => void;
};

/** `delete_actor` cannot be undone: name the actor and ask first. */
export function ConfirmDeleteDialog({ actor, onConfirm, onCancel }: Props) {
  const titleId = useId();
  const textId = useId();
  return (
    <Dialog
      open={actor !== null}
      onClose={onCancel}
      aria-labelledby={titleId}
      aria-describedby={textId}
    >
      <DialogTitle id={titleId}>Delete {actor}?</DialogTitle>
      <DialogContent>
        <DialogContentText id={textId}>
          {actor} becomes a Tombstone: its followers are told it is gone, and it cannot be used or
          restored afterwards.
        </DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel}>Cancel</Button>
        <Button color="error" variant="contained" onClick={onConfirm}>
          Delete actor
        </Button>
      </DialogActions>
    </Dialog>
  );
}
