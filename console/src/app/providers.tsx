import { useMemo, type ReactNode } from "react";
import { CssBaseline, ThemeProvider, createTheme, useMediaQuery } from "@mui/material";
import { ErrorBoundary } from "../components/error-boundary/index.ts";
import { effectiveColorMode, useColorModeStore } from "../lib/color-mode.ts";

/**
 * Everything every screen needs around it, shared by main.tsx and the tests. The boundary here
 * catches failures of the layout itself; the layout has its own around the screens. The theme
 * follows prefers-color-scheme unless the operator chose with "Toggle dark mode".
 */
export function Providers({ children }: { children: ReactNode }) {
  const systemDark = useMediaQuery("(prefers-color-scheme: dark)", { noSsr: true });
  const chosen = useColorModeStore((state) => state.chosen);
  const mode = effectiveColorMode(chosen, systemDark);
  const theme = useMemo(() => createTheme({ palette: paletteFor(mode) }), [mode]);
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <ErrorBoundary>{children}</ErrorBoundary>
    </ThemeProvider>
  );
}

/**
 * MUI's palette, except light mode's warning colour: its default (#ed6c02) reads 3.1:1 on white,
 * under WCAG's 4.5:1 for text ("Reset", "Stop delivery"). #b45309 reads 5.0:1 and keeps white
 * text on a filled warning chip readable. Dark mode's default passes as it is.
 */
function paletteFor(mode: "light" | "dark") {
  return mode === "light" ? { mode, warning: { main: "#b45309" } } : { mode };
}
