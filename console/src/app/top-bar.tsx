import { Link as RouterLink, useNavigate } from "react-router";
import { AppBar, Box, Button, IconButton, Toolbar, Typography } from "@mui/material";
import DarkModeIcon from "@mui/icons-material/DarkMode";
import LightModeIcon from "@mui/icons-material/LightMode";
import MenuIcon from "@mui/icons-material/Menu";
import { useTheme } from "@mui/material/styles";
import { useColorModeStore } from "../lib/color-mode.ts";
import { useUserStore } from "../lib/user-store.ts";
import { ActorMenu } from "./actor-menu.tsx";
import { CurrentActorLabel } from "./current-actor-label.tsx";
import { LazyTooltip } from "./lazy-tooltip.tsx";
import { DRAWER_WIDTH } from "./navigation-drawer.tsx";

/** `onMenu` is set below 900 px, where the drawer is temporary and "Menu" opens it. */
export function TopBar({ onMenu }: { onMenu?: () => void }) {
  const signedIn = useUserStore((state) => state.token !== null);
  const navigate = useNavigate();
  const narrow = onMenu !== undefined;
  return (
    <AppBar
      position="fixed"
      sx={narrow ? {} : { width: `calc(100% - ${DRAWER_WIDTH}px)`, ml: `${DRAWER_WIDTH}px` }}
    >
      <Toolbar>
        {narrow && (
          <LazyTooltip title="Menu">
            <IconButton
              color="inherit"
              edge="start"
              aria-label="Menu"
              onClick={onMenu}
              sx={{ mr: 1 }}
            >
              <MenuIcon />
            </IconButton>
          </LazyTooltip>
        )}
        <Typography
          variant="h6"
          noWrap
          component={RouterLink}
          to="/"
          sx={{ color: "inherit", textDecoration: "none", minWidth: 0 }}
        >
          {window.location.host}
        </Typography>
        <Box sx={{ flexGrow: 1 }} />
        <DarkModeToggle />
        {signedIn ? (
          <>
            <CurrentActorLabel />
            <ActorMenu />
          </>
        ) : (
          // A button, as docs/console-guide.md#layout names it (a screen reader announces it as one),
          // that navigates.
          <Button color="inherit" onClick={() => void navigate("/signin")} sx={{ flexShrink: 0 }}>
            Sign In
          </Button>
        )}
      </Toolbar>
    </AppBar>
  );
}

/** Overrides the system's prefers-color-scheme with the other mode; remembered. */
function DarkModeToggle() {
  const dark = useTheme().palette.mode === "dark";
  const choose = useColorModeStore((state) => state.choose);
  return (
    <LazyTooltip title="Toggle dark mode">
      <IconButton
        color="inherit"
        aria-label="Toggle dark mode"
        aria-pressed={dark}
        onClick={() => choose(dark ? "light" : "dark")}
      >
        {dark ? <LightModeIcon /> : <DarkModeIcon />}
      </IconButton>
    </LazyTooltip>
  );
}
