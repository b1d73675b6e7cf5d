import type { MouseEvent, ReactNode } from "react";
import { NavLink } from "react-router";
import {
  Badge,
  Drawer,
  Link,
  List,
  ListItemButton,
  ListItemText,
  ListSubheader,
  Toolbar,
  Typography,
} from "@mui/material";
import { useStreamCount } from "../features/streams/index.ts";
import { useUserStore } from "../lib/user-store.ts";

export const DRAWER_WIDTH = 240;
export const CONSOLE_TITLE = "Corral";
// The project has no public remote yet: set VITE_SOURCE_CODE_URL at build time to point there.
export const SOURCE_CODE_URL: string =
  import.meta.env.VITE_SOURCE_CODE_URL ?? "https://codeberg.org/bovine/cattle_grid";

export function NavigationDrawer() {
  const signedIn = useUserStore((state) => state.token !== null);
  return (
    <Drawer
      variant="permanent"
      anchor="left"
      sx={{
        width: DRAWER_WIDTH,
        flexShrink: 0,
        "& .MuiDrawer-paper": { width: DRAWER_WIDTH, boxSizing: "border-box" },
      }}
    >
      <Toolbar sx={{ flexDirection: "column", alignItems: "flex-start", justifyContent: "center" }}>
        <Typography variant="h6" component="p">
          {CONSOLE_TITLE}
        </Typography>
        <Link href={SOURCE_CODE_URL} target="_blank" rel="noreferrer" variant="body2">
          Source code
        </Link>
      </Toolbar>
      {signedIn && <SignedInEntries />}
    </Drawer>
  );
}

function SignedInEntries() {
  const noActor = useUserStore((state) => state.currentActor === null);
  return (
    <nav aria-label="Console">
      <List>
        <NavEntry to="/" label="Info" />
      </List>
      <List subheader={<ListSubheader>Actor</ListSubheader>}>
        <NavEntry to="/lookup" label="Lookup" disabled={noActor} />
        <NavEntry to="/perform" label="Perform" disabled={noActor} />
      </List>
      <List subheader={<ListSubheader>Account</ListSubheader>}>
        <StreamEntry type="incoming" label="Incoming" />
        <StreamEntry type="outgoing" label="Outgoing" />
        <StreamEntry type="error" label="Error" />
        <NavEntry to="/stream/all" label="All" />
      </List>
    </nav>
  );
}

type StreamEntryProps = { type: "incoming" | "outgoing" | "error"; label: string };

function StreamEntry({ type, label }: StreamEntryProps) {
  const count = useStreamCount(type);
  const badge = <Badge badgeContent={count} max={99_999} showZero color="primary" sx={{ mr: 2 }} />;
  return <NavEntry to={`/stream/${type}`} label={label} trailing={badge} />;
}

type NavEntryProps = { to: string; label: string; disabled?: boolean; trailing?: ReactNode };

function NavEntry({ to, label, disabled = false, trailing }: NavEntryProps) {
  // A disabled link must not navigate even when clicked by script or assistive technology.
  const block = (event: MouseEvent) => disabled && event.preventDefault();
  return (
    <ListItemButton
      component={NavLink}
      to={to}
      end
      disabled={disabled}
      onClick={block}
      // NavLink marks the entry of the screen shown with the class "active".
      sx={{ "&.active": { bgcolor: "action.selected" } }}
    >
      <ListItemText primary={label} />
      {trailing}
    </ListItemButton>
  );
}
