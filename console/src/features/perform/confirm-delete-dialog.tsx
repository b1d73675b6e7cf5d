import { ConfirmDialog } from "../../components/confirm-dialog/confirm-dialog.tsx";

type Props = {
  /** The actor about to be deleted, as the console names it, or null while closed. */
  actor: string | null;
  onConfirm: () => void;
  onCancel: () => void;
};

/** `delete_actor` cannot be undone: name the actor and ask first. */
export function ConfirmDeleteDialog({ actor, onConfirm, onCancel }: Props) {
  return (
    <ConfirmDialog
      open={actor !== null}
      title={<>Delete {actor}?</>}
      text={
        <>
          {actor} becomes a Tombstone: its followers are told it is gone, and it cannot be used or
          restored afterwards.
        </>
      }
      confirmLabel="Delete actor"
      color="error"
      onConfirm={onConfirm}
      onCancel={onCancel}
    />
  );
}
