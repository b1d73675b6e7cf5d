import { useState } from "react";
import { useNavigate } from "react-router";
import { Button, Divider, ListItemIcon, ListItemText, Menu, MenuItem } from "@mui/material";
import CheckIcon from "@mui/icons-material/Check";
import { callFe } from "../lib/fe-client.ts";
import { useUserStore } from "../lib/user-store.ts";

/** The "Open" menu: every actor (the current one checked), then Logout. */
export function ActorMenu() {
  const actors = useUserStore((state) => state.actors);
  const currentActor = useUserStore((state) => state.currentActor);
  const setCurrentActor = useUserStore((state) => state.setCurrentActor);
  const setToken = useUserStore((state) => state.setToken);
  const navigate = useNavigate();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const close = () => setAnchor(null);

  function choose(actorId: string) {
    setCurrentActor(actorId);
    close();
  }

  function logout() {
    // The token ends on the server too (its streams close there). The console signs out whatever
    // the answer: a cattle_grid behind --upstream has no such route, and nothing here waits.
    void callFe("/signout", { method: "POST" }).catch(() => {});
    setToken(null);
    close();
    void navigate("/");
  }

  return (
    <>
      <Button
        color="inherit"
        id="actor-menu-button"
        aria-controls={anchor ? "actor-menu" : undefined}
        aria-haspopup="true"
        aria-expanded={anchor ? "true" : undefined}
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        Open
      </Button>
      <Menu
        id="actor-menu"
        anchorEl={anchor}
        open={anchor !== null}
        onClose={close}
        slotProps={{ list: { "aria-labelledby": "actor-menu-button" } }}
      >
        {actors.map((actor) => {
          const current = actor.id === currentActor;
          return (
            <MenuItem
              key={actor.id}
              role="menuitemradio"
              aria-checked={current}
              selected={current}
              onClick={() => choose(actor.id)}
            >
              <ListItemIcon>{current && <CheckIcon fontSize="small" />}</ListItemIcon>
              <ListItemText>{actor.name}</ListItemText>
            </MenuItem>
          );
        })}
        <Divider />
        <MenuItem onClick={logout}>Logout</MenuItem>
      </Menu>
    </>
  );
}
