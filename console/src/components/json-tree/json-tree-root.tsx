import { styled } from "@mui/material/styles";

/**
 * One styled container for the whole tree: rows use plain class names, so thousands of rows cost
 * no per-row style computation (an `sx` prop per row would).
 */
export const JsonTreeRoot = styled("div")(({ theme }) => ({
  fontFamily: 'ui-monospace, "SFMono-Regular", Menlo, Consolas, "Liberation Mono", monospace',
  fontSize: "0.8125rem",
  lineHeight: "1.6",
  color: theme.palette.text.primary,
  overflowWrap: "anywhere",
  "& .jt-row": { minHeight: "1.6em", whiteSpace: "pre-wrap" },
  "& .jt-key": { color: theme.palette.primary.main },
  "& .jt-group": { color: theme.palette.text.secondary },
  "& .jt-string": { color: theme.palette.success.main },
  "& .jt-number, & .jt-bigint": { color: theme.palette.warning.main },
  "& .jt-boolean, & .jt-null, & .jt-undefined": { color: theme.palette.secondary.main },
  "& .jt-punct, & .jt-size": { color: theme.palette.text.secondary },
  "& .jt-size": { fontSize: "0.75rem" },
  "& .jt-link": { color: "inherit", textDecoration: "underline", cursor: "pointer" },
  "& .jt-toggle": {
    font: "inherit",
    color: "inherit",
    background: "none",
    border: "none",
    padding: 0,
    margin: 0,
    cursor: "pointer",
    borderRadius: 2,
  },
  "& .jt-toggle:focus-visible, & .jt-link:focus-visible": {
    outline: `2px solid ${theme.palette.primary.main}`,
    outlineOffset: 1,
  },
  "& .jt-arrow": { display: "inline-block", width: "1em", color: theme.palette.text.secondary },
}));
