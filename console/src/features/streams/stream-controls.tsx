import { useState } from "react";
import { Box, Button, FormControlLabel, Menu, MenuItem, Switch } from "@mui/material";
import type { ExportFormat } from "./export-messages.ts";
import { useViewPreferences } from "./view-preferences.ts";

type StreamControlsProps = {
  paused: boolean;
  newCount: number;
  onTogglePause: () => void;
  /** "N new": resume and bring the new messages into view. */
  onShowNew: () => void;
  onExport: (format: ExportFormat) => void;
};

/** Pause / "N new" / Resume, the remembered view switches, and Export. */
export function StreamControls({
  paused,
  newCount,
  onTogglePause,
  onShowNew,
  onExport,
}: StreamControlsProps) {
  const { compact, newestFirst, setCompact, setNewestFirst } = useViewPreferences();
  const [exportAnchor, setExportAnchor] = useState<HTMLElement | null>(null);
  const choose = (format: ExportFormat) => {
    setExportAnchor(null);
    onExport(format);
  };
  return (
    <>
      <Box sx={{ display: "flex", gap: 1, flexWrap: "wrap" }}>
        <Button variant={paused ? "contained" : "outlined"} onClick={onTogglePause}>
          {paused ? "Resume" : "Pause"}
        </Button>
        {paused && newCount > 0 && (
          <Button variant="outlined" onClick={onShowNew}>
            {`${newCount} new`}
          </Button>
        )}
      </Box>
      <Box sx={{ display: "flex", flexDirection: "column" }}>
        <FormControlLabel
          control={<Switch checked={compact} onChange={(_, on) => setCompact(on)} />}
          label="Compact"
        />
        <FormControlLabel
          control={<Switch checked={newestFirst} onChange={(_, on) => setNewestFirst(on)} />}
          label="Newest first"
        />
      </Box>
      <Button
        variant="outlined"
        aria-haspopup="menu"
        aria-expanded={exportAnchor !== null}
        onClick={(event) => setExportAnchor(event.currentTarget)}
      >
        Export
      </Button>
      <Menu
        anchorEl={exportAnchor}
        open={exportAnchor !== null}
        onClose={() => setExportAnchor(null)}
      >
        <MenuItem onClick={() => choose("json")}>JSON</MenuItem>
        <MenuItem onClick={() => choose("ndjson")}>NDJSON</MenuItem>
      </Menu>
    </>
  );
}
