import { Typography } from "@mui/material";
import { useActorHandles, useLearnHandles } from "../lib/actor-handles.ts";
import { useUserStore } from "../lib/user-store.ts";

/** Beside "Open": who Lookup and Perform act as, `@handle@host` once its document was seen. */
export function CurrentActorLabel() {
  const currentActor = useUserStore((state) => state.currentActor);
  const name = useUserStore(
    (state) => state.actors.find((actor) => actor.id === state.currentActor)?.name,
  );
  const handle = useActorHandles((state) =>
    currentActor === null ? undefined : state.handles[currentActor],
  );
  useLearnHandles([currentActor]);
  if (currentActor === null) return null;
  return (
    <Typography
      data-testid="top-bar-actor"
      variant="body2"
      noWrap
      title={currentActor}
      sx={{ minWidth: 0, flexShrink: 1, ml: 1 }}
    >
      {handle ?? name ?? currentActor}
    </Typography>
  );
}
