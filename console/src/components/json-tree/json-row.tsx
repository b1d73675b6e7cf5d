import { memo, type MouseEvent } from "react";
import type { JsonRow } from "./flatten-json.ts";
import { buildLookupPath, isLookupUrl } from "./lookup-url.ts";

type RowProps = {
  row: JsonRow;
  /** Marks a "Find in document" match; "current" is the one scrolled to. */
  match?: "match" | "current";
  onToggle: (id: string) => void;
  onNavigate: (url: string) => void;
};

const INDENT_EM = 1.25;
// Deeper rows stop moving right (100,000 levels would indent 125,000 em) and say their depth.
const MAX_INDENT_DEPTH = 40;

/** One visible line of the tree; memoised so a toggle re-renders only the rows that changed. */
export const JsonRowView = memo(function JsonRowView({
  row,
  match,
  onToggle,
  onNavigate,
}: RowProps) {
  const indent = { paddingLeft: `${Math.min(row.depth, MAX_INDENT_DEPTH) * INDENT_EM}em` };
  const className = match ? `jt-row jt-match jt-match-${match}` : "jt-row";
  const depthMark = row.depth > MAX_INDENT_DEPTH && (
    <span className="jt-depth" title="depth">
      {`${row.depth}› `}
    </span>
  );
  if (row.kind === "leaf") {
    return (
      <div className={className} style={indent}>
        {depthMark}
        {row.label !== null && <span className="jt-key">{row.label}: </span>}
        <LeafValue value={row.value} onNavigate={onNavigate} />
      </div>
    );
  }
  const action = row.open ? "Collapse" : "Expand";
  const sizeText =
    row.kind === "group" || (row.kind === "branch" && row.isArray)
      ? `${row.size} ${row.size === 1 ? "item" : "items"}`
      : `${row.size} ${row.size === 1 ? "key" : "keys"}`;
  const closedMark = row.kind === "branch" ? (row.isArray ? "[…]" : "{…}") : "";
  // A click anywhere on the row (its `{…}`, its size) toggles it, as the key's button does; the
  // button stays the one control for the keyboard and assistive technology.
  const toggleFromRow = (event: MouseEvent<HTMLDivElement>) => {
    if (!(event.target as Element).closest("button")) onToggle(row.id);
  };
  return (
    <div className={`${className} jt-branch`} style={indent} onClick={toggleFromRow}>
      {depthMark}
      <button
        type="button"
        className="jt-toggle"
        aria-label={`${action} ${row.label ?? ""}`.trim()}
        aria-expanded={row.open}
        onClick={() => onToggle(row.id)}
      >
        <span className="jt-arrow" aria-hidden="true">
          {row.open ? "▾" : "▸"}
        </span>
        <span className={row.kind === "group" ? "jt-group" : "jt-key"}>{row.label}</span>
      </button>
      {!row.open && closedMark && <span className="jt-punct">: {closedMark}</span>}
      <span className="jt-size"> {sizeText}</span>
    </div>
  );
});

function LeafValue({ value, onNavigate }: { value: unknown; onNavigate: (url: string) => void }) {
  if (typeof value === "string") {
    if (!isLookupUrl(value)) return <span className="jt-string">"{value}"</span>;
    const follow = (event: MouseEvent<HTMLAnchorElement>) => {
      // Keep modified clicks (new tab, new window) to the browser; plain clicks stay in the app.
      if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey)
        return;
      event.preventDefault();
      onNavigate(value);
    };
    return (
      <span className="jt-string">
        "
        <a className="jt-link" href={buildLookupPath(value)} onClick={follow}>
          {value}
        </a>
        "
      </span>
    );
  }
  if (Array.isArray(value)) return <span className="jt-punct">[]</span>;
  if (typeof value === "object" && value !== null) return <span className="jt-punct">{"{}"}</span>;
  const kind = value === null ? "null" : typeof value;
  return <span className={`jt-${kind}`}>{String(value)}</span>;
}
