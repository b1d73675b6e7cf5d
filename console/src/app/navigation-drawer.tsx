import type { MouseEvent, ReactNode } from "react";
import { NavLink } from "react-router";
import {
  Badge,
  Drawer,
  Link,
  List,
  ListItem,
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

type StreamType = "incoming" | "outgoing" | "error";

/** One drawer entry: a route, its label, whether it needs a current actor, a stream's badge. */
export type NavEntryDefinition = {
  to: string;
  label: string;
  needsActor?: boolean;
  stream?: StreamType;
};

/** The signed-in drawer, group by group (a null title: no subheader). Add entries here. */
export const NAV_GROUPS: { title: string | null; entries: NavEntryDefinition[] }[] = [
  { title: null, entries: [{ to: "/", label: "Info" }] },
  {
    title: "Actor",
    entries: [
      { to: "/lookup", label: "Lookup", needsActor: true },
      { to: "/perform", label: "Perform", needsActor: true },
    ],
  },
  {
    title: "Account",
    entries: [
      { to: "/stream/incoming", label: "Incoming", stream: "incoming" },
      { to: "/stream/outgoing", label: "Outgoing", stream: "outgoing" },
      { to: "/stream/error", label: "Error", stream: "error" },
      { to: "/stream/all", label: "All" },
      { to: "/deliveries", label: "Deliveries" },
      { to: "/refused", label: "Refused" },
    ],
  },
];

type NavigationDrawerProps = {
  /** "temporary" below 900 px: opened by the top bar's "Menu", closed by choosing an entry. */
  variant: "permanent" | "temporary";
  open?: boolean;
  onClose?: () => void;
};

export function NavigationDrawer({ variant, open = false, onClose }: NavigationDrawerProps) {
  const signedIn = useUserStore((state) => state.token !== null);
  return (
    <Drawer
      variant={variant}
      anchor="left"
      open={variant === "permanent" || open}
      onClose={onClose}
      sx={{
        width: variant === "permanent" ? DRAWER_WIDTH : undefined,
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
      {signedIn && <SignedInEntries onChosen={variant === "temporary" ? onClose : undefined} />}
    </Drawer>
  );
}

function SignedInEntries({ onChosen }: { onChosen?: () => void }) {
  const noActor = useUserStore((state) => state.currentActor === null);
  return (
    <nav aria-label="Console">
      {NAV_GROUPS.map((group) => (
        <List
          key={group.title ?? ""}
          subheader={group.title ? <ListSubheader>{group.title}</ListSubheader> : undefined}
        >
          {group.entries.map((entry) =>
            entry.stream ? (
              <StreamEntry key={entry.to} entry={entry} type={entry.stream} onChosen={onChosen} />
            ) : (
              <NavEntry
                key={entry.to}
                to={entry.to}
                label={entry.label}
                disabled={Boolean(entry.needsActor) && noActor}
                onChosen={onChosen}
              />
            ),
          )}
        </List>
      ))}
    </nav>
  );
}

type StreamEntryProps = { entry: NavEntryDefinition; type: StreamType; onChosen?: () => void };

function StreamEntry({ entry, type, onChosen }: StreamEntryProps) {
  const count = useStreamCount(type);
  const badge = <Badge badgeContent={count} max={99_999} showZero color="primary" sx={{ mr: 2 }} />;
  return <NavEntry to={entry.to} label={entry.label} trailing={badge} onChosen={onChosen} />;
}

type NavEntryProps = {
  to: string;
  label: string;
  disabled?: boolean;
  trailing?: ReactNode;
  onChosen?: () => void;
};

function NavEntry({ to, label, disabled = false, trailing, onChosen }: NavEntryProps) {
  // A disabled link must not navigate even when clicked by script or assistive technology.
  const choose = (event: MouseEvent) => {
    if (disabled) event.preventDefault();
    else onChosen?.();
  };
  return (
    // A list holds list items: the link sits in one (axe-core's "list" rule).
    <ListItem disablePadding>
      <ListItemButton
        component={NavLink}
        to={to}
        end
        disabled={disabled}
        onClick={choose}
        // NavLink marks the entry of the screen shown with the class "active".
        sx={{ "&.active": { bgcolor: "action.selected" } }}
      >
        <ListItemText primary={label} />
        {trailing}
      </ListItemButton>
    </ListItem>
  );
}
