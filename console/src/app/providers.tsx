import type { ReactNode } from "react";
import { CssBaseline, ThemeProvider, createTheme } from "@mui/material";
import { ErrorBoundary } from "../components/error-boundary/index.ts";

const theme = createTheme();

/**
 * Everything every screen needs around it, shared by main.tsx and the tests. The boundary here
 * catches failures of the layout itself; the layout has its own around the screens.
 */
export function Providers({ children }: { children: ReactNode }) {
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <ErrorBoundary>{children}</ErrorBoundary>
    </ThemeProvider>
  );
}
