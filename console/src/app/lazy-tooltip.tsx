import { lazy, Suspense, type ReactElement } from "react";

type TooltipProps = { title: string; children: ReactElement };

function Untitled({ children }: TooltipProps) {
  return children;
}

// MUI's Tooltip brings Popper.js (about 7 KB gzip), which no first paint needs. If its chunk cannot
// load, the button stays as it is: its aria-label names it all the same.
const Tooltip = lazy(() =>
  import("@mui/material/Tooltip").then(
    (module) => ({ default: module.default as (props: TooltipProps) => ReactElement }),
    () => ({ default: Untitled }),
  ),
);

/** A top-bar icon button's visible label: the bare button until the tooltip's chunk is there. */
export function LazyTooltip({ title, children }: TooltipProps) {
  return (
    <Suspense fallback={children}>
      <Tooltip title={title}>{children}</Tooltip>
    </Suspense>
  );
}
