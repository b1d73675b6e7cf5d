import { useState } from "react";
import { Outlet, useLocation } from "react-router";
import { Box, Toolbar } from "@mui/material";
import { ErrorBoundary } from "../components/error-boundary/index.ts";
import { KeyboardShortcutsDialog } from "../components/keyboard-shortcuts/index.ts";
import { useStreamConnections } from "../features/streams/index.ts";
import { DRAWER_WIDTH, NavigationDrawer } from "./navigation-drawer.tsx";
import { TopBar } from "./top-bar.tsx";
import { useNarrowScreen } from "./use-narrow-screen.ts";

export function Layout() {
  // Streams collect messages on every screen while signed in, so the badges count them.
  useStreamConnections();
  const location = useLocation();
  const narrow = useNarrowScreen();
  const [menuOpen, setMenuOpen] = useState(false);
  return (
    <Box sx={{ display: "flex" }}>
      <TopBar onMenu={narrow ? () => setMenuOpen(true) : undefined} />
      <NavigationDrawer
        variant={narrow ? "temporary" : "permanent"}
        open={menuOpen}
        onClose={() => setMenuOpen(false)}
      />
      <Box
        component="main"
        sx={{
          flexGrow: 1,
          p: narrow ? 2 : 3,
          width: narrow ? "100%" : `calc(100% - ${DRAWER_WIDTH}px)`,
          minWidth: 0,
          // Long URLs (actor ids) wrap instead of widening a narrow page sideways.
          overflowWrap: "break-word",
        }}
      >
        <Toolbar />
        {/* Keyed by path: leaving a broken screen renders the next one afresh. */}
        <ErrorBoundary key={location.pathname}>
          <Outlet />
        </ErrorBoundary>
      </Box>
      <KeyboardShortcutsDialog />
    </Box>
  );
}
