import { ConfirmDialog } from "../../components/confirm-dialog/confirm-dialog.tsx";

type Props = {
  /** The host to stop, or null while closed. */
  host: string | null;
  onConfirm: (host: string) => void;
  onCancel: () => void;
};

/** Stopping holds every delivery to a host until "Resume delivery": say so before doing it. */
export function StopDeliveryDialog({ host, onConfirm, onCancel }: Props) {
  return (
    <ConfirmDialog
      open={host !== null}
      title={<>Stop delivery to {host}?</>}
      text={
        <>
          Nothing more is sent to {host} until you choose &quot;Resume delivery&quot;. New and
          retried deliveries wait in the queue with the state &quot;stopped&quot;; none is dropped,
          and all of them are sent on resume.
        </>
      }
      confirmLabel="Stop delivery"
      color="warning"
      onConfirm={() => host && onConfirm(host)}
      onCancel={onCancel}
    />
  );
}
