import { memo } from "react";
import { Box, Button, MenuItem, TextField } from "@mui/material";
import { NO_FILTER } from "./use-type-filter.ts";

type SidePanelProps = {
  activityTypes: readonly string[];
  chosen: string;
  onChoose: (type: string) => void;
  onReset: () => void;
};

export const SIDE_PANEL_WIDTH = 240;

/** Memoised: the message list re-renders on every batch, the panel only when its props change. */
export const StreamSidePanel = memo(function StreamSidePanel({
  activityTypes,
  chosen,
  onChoose,
  onReset,
}: SidePanelProps) {
  return (
    <Box
      component="aside"
      sx={{
        width: SIDE_PANEL_WIDTH,
        flexShrink: 0,
        position: "sticky",
        top: (theme) => theme.spacing(11),
        display: "flex",
        flexDirection: "column",
        gap: 2,
      }}
    >
      <Button variant="outlined" color="warning" onClick={onReset}>
        Reset
      </Button>
      <TextField
        select
        id="stream-activity-type"
        label="Select Type of Activity"
        value={chosen}
        onChange={(event) => onChoose(event.target.value)}
        size="small"
        // "Don't filter" is the empty value; MUI shows an empty value only when asked to.
        slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
      >
        <MenuItem value={NO_FILTER}>Don't filter</MenuItem>
        {activityTypes.map((type) => (
          <MenuItem key={type} value={type}>
            {type}
          </MenuItem>
        ))}
      </TextField>
    </Box>
  );
});
