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
  /** The host to stop, or null while closed. */
  host: string | null;
  onConfirm: (host: string) => void;
  onCancel: () => void;
};

/** Stopping holds every delivery to a host until "Resume delivery": say so before doing it. */
export function StopDeliveryDialog({ host, onConfirm, onCancel }: Props) {
  const titleId = useId();
  const textId = useId();
  return (
    <Dialog
      open={host !== null}
      onClose={onCancel}
      aria-labelledby={titleId}
      aria-describedby={textId}
    >
      <DialogTitle id={titleId}>Stop delivery to {host}?</DialogTitle>
      <DialogContent>
        <DialogContentText id={textId}>
          Nothing more is sent to {host} until you choose &quot;Resume delivery&quot;. New and
          retried deliveries wait in the queue with the state &quot;stopped&quot;; none is dropped,
          and all of them are sent on resume.
        </DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel}>Cancel</Button>
        <Button color="warning" variant="contained" onClick={() => host && onConfirm(host)}>
          Stop delivery
        </Button>
      </DialogActions>
    </Dialog>
  );
}
