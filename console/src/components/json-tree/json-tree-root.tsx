import { useMemo, type CSSProperties, type ReactNode } from "react";
import { useTheme } from "@mui/material/styles";
import "./json-tree.css";

/** The tree's container: static CSS (json-tree.css) coloured from the MUI theme. */
export function JsonTreeRoot({ children }: { children: ReactNode }) {
  const { palette } = useTheme();
  const colours = useMemo(
    () =>
      ({
        "--jt-text": palette.text.primary,
        "--jt-key": palette.primary.main,
        // The dark shades of green and orange are unreadable on a dark background.
        "--jt-string": palette.mode === "dark" ? palette.success.light : palette.success.dark,
        "--jt-number": palette.mode === "dark" ? palette.warning.light : palette.warning.dark,
        "--jt-literal": palette.secondary.main,
        "--jt-muted": palette.text.secondary,
        "--jt-match": palette.action.selected,
      }) as CSSProperties,
    [palette],
  );
  return (
    <div className="json-tree" style={colours}>
      {children}
    </div>
  );
}
