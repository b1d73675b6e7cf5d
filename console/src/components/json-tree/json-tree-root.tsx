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
        "--jt-string": palette.success.dark,
        "--jt-number": palette.warning.dark,
        "--jt-literal": palette.secondary.main,
        "--jt-muted": palette.text.secondary,
      }) as CSSProperties,
    [palette],
  );
  return (
    <div className="json-tree" style={colours}>
      {children}
    </div>
  );
}
