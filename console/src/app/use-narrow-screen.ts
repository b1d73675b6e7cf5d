import { useMediaQuery, useTheme } from "@mui/material";

/** Below MUI's md breakpoint (900 px) the drawer is a temporary one opened by "Menu". */
export function useNarrowScreen(): boolean {
  const theme = useTheme();
  // noSsr: read at once, so a phone never sees the permanent drawer for a frame.
  return useMediaQuery(theme.breakpoints.down("md"), { noSsr: true });
}
