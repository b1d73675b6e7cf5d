import { Outlet, useLocation } from "react-router";
import { Box, Toolbar } from "@mui/material";
import { ErrorBoundary } from "../components/error-boundary/index.ts";
import { KeyboardShortcutsDialog } from "../components/keyboard-shortcuts/index.ts";
import { useStreamConnections } from "../features/streams/index.ts";
import { DRAWER_WIDTH, NavigationDrawer } from "./navigation-drawer.tsx";
import { TopBar } from "./top-bar.tsx";

export function Layout() {
  // Streams collect messages on every screen while signed in, so the badges count them.
  useStreamConnections();
  const location = useLocation();
  return (
    <Box sx={{ display: "flex" }}>
      <TopBar />
      <NavigationDrawer />
      <Box component="main" sx={{ flexGrow: 1, p: 3, width: `calc(100% - ${DRAWER_WIDTH}px)` }}>
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
