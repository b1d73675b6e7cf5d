import { memo, type ReactNode, type Ref } from "react";
import {
  Box,
  Button,
  CircularProgress,
  InputAdornment,
  MenuItem,
  TextField,
  Typography,
} from "@mui/material";
import { NO_FILTER } from "./use-type-filter.ts";

type SidePanelProps = {
  search: string;
  onSearch: (text: string) => void;
  searchRef: Ref<HTMLInputElement>;
  shownCount: number;
  heldCount: number;
  searching: boolean;
  /** "From" and "To" as the fields hold them (datetime-local: yyyy-MM-ddTHH:mm[:ss]). */
  from: string;
  to: string;
  onFrom: (value: string) => void;
  onTo: (value: string) => void;
  /** "N of M": M when it is not the messages held (a server search counts its matches). */
  ofCount?: number;
  activityTypes: readonly string[];
  chosen: string;
  onChoose: (type: string) => void;
  onReset: () => void;
  /** The status region and the list controls, between the filters and Reset. */
  children: ReactNode;
};

export const SIDE_PANEL_WIDTH = 240;

/**
 * The side panel, sticky beside the list on wide screens and above it on narrow ones: search
 * beside the type filter, "N of M", the list controls and Reset.
 * Memoised: the message list re-renders on every batch, the panel only when its props change.
 */
export const StreamSidePanel = memo(function StreamSidePanel(props: SidePanelProps) {
  const { activityTypes, chosen, onChoose, onReset, search, onSearch } = props;
  return (
    <Box
      component="aside"
      sx={{
        width: { xs: "auto", md: SIDE_PANEL_WIDTH },
        flexShrink: 0,
        // Sticky only beside the list: above it (below 900 px) it would cover the messages.
        position: { xs: "static", md: "sticky" },
        top: (theme) => theme.spacing(11),
        display: "flex",
        flexDirection: { xs: "row", md: "column" },
        flexWrap: { xs: "wrap", md: "nowrap" },
        alignItems: { xs: "center", md: "stretch" },
        gap: 2,
        // Above the list the fields share a row where they fit, so the messages start higher.
        "& > .MuiTextField-root": { flex: { xs: "1 1 160px", md: "none" } },
      }}
    >
      <TextField
        id="stream-search"
        label="Search messages"
        type="search"
        size="small"
        value={search}
        onChange={(event) => onSearch(event.target.value)}
        inputRef={props.searchRef}
        slotProps={{
          input: {
            endAdornment: props.searching ? (
              <InputAdornment position="end">
                <CircularProgress size={16} aria-label="Searching" />
              </InputAdornment>
            ) : undefined,
          },
        }}
      />
      <TextField
        id="stream-from"
        label="From"
        type="datetime-local"
        size="small"
        value={props.from}
        onChange={(event) => props.onFrom(event.target.value)}
        slotProps={{ inputLabel: { shrink: true }, htmlInput: { step: 1 } }}
      />
      <TextField
        id="stream-to"
        label="To"
        type="datetime-local"
        size="small"
        value={props.to}
        onChange={(event) => props.onTo(event.target.value)}
        slotProps={{ inputLabel: { shrink: true }, htmlInput: { step: 1 } }}
      />
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
      <Typography
        variant="body2"
        data-testid="shown-count"
        // Which search the count answers, and whether it is still working: the bench waits on these.
        data-search={props.search}
        aria-busy={props.searching}
      >
        {props.searching
          ? "Searching…"
          : `${props.shownCount} of ${props.ofCount ?? props.heldCount}`}
      </Typography>
      {props.children}
      <Button variant="outlined" color="warning" onClick={onReset}>
        Reset
      </Button>
    </Box>
  );
});
