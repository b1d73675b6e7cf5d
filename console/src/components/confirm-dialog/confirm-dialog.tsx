import { useId, type ReactNode } from "react";
import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
} from "@mui/material";

type Props = {
  open: boolean;
  /** The question, naming what is about to happen ("Delete alice?"). */
  title: ReactNode;
  /** What doing it means, in words; the dialog's description. */
  text: ReactNode;
  /** The confirming button's label: the action itself, never "OK". */
  confirmLabel: string;
  color: "warning" | "error";
  onConfirm: () => void;
  onCancel: () => void;
};

/** Asks before an action that is hard to undo: a titled question, its consequence, Cancel. */
export function ConfirmDialog({
  open,
  title,
  text,
  confirmLabel,
  color,
  onConfirm,
  onCancel,
}: Props) {
  const titleId = useId();
  const textId = useId();
  return (
    <Dialog open={open} onClose={onCancel} aria-labelledby={titleId} aria-describedby={textId}>
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent>
        <DialogContentText id={textId}>{text}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel}>Cancel</Button>
        <Button color={color} variant="contained" onClick={onConfirm}>
          {confirmLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
