import { Suspense, useEffect, useState } from "react";
import { Outlet, useLocation } from "react-router";
import { Box, LinearProgress, Toolbar } from "@mui/material";
import { ErrorBoundary } from "../components/error-boundary/index.ts";
import { KeyboardShortcutsDialog } from "../components/keyboard-shortcuts/index.ts";
import { useStreamConnections } from "../features/streams/index.ts";
import { preloadPages } from "./lazy-page.tsx";
import { DRAWER_WIDTH, NavigationDrawer } from "./navigation-drawer.tsx";
import { TopBar } from "./top-bar.tsx";
import { useNarrowScreen } from "./use-narrow-screen.ts";

export function Layout() {
  // Streams collect messages on every screen while signed in, so the badges count them.
  useStreamConnections();
  const location = useLocation();
  const narrow = useNarrowScreen();
  const [menuOpen, setMenuOpen] = useState(false);
  usePreloadWhenIdle();
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
          <Suspense fallback={<LinearProgress aria-label="Loading the page" />}>
            <Outlet />
          </Suspense>
        </ErrorBoundary>
      </Box>
      <KeyboardShortcutsDialog />
    </Box>
  );
}

/**
 * Once the first screen has painted and the browser is idle, the other screens' chunks load too,
 * so choosing one in the drawer rarely waits. A chunk that fails here is tried again on use.
 */
function usePreloadWhenIdle() {
  useEffect(() => {
    const preload = () => void preloadPages().catch(() => {});
    if (typeof requestIdleCallback === "function") {
      const id = requestIdleCallback(preload, { timeout: 5000 });
      return () => cancelIdleCallback(id);
    }
    const timer = setTimeout(preload, 2000);
    return () => clearTimeout(timer);
  }, []);
}
