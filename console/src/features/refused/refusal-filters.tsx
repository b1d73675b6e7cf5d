import { MenuItem, Stack, TextField } from "@mui/material";
import { REFUSAL_REASONS } from "../../lib/refusal-client.ts";
import type { RefusalFilters } from "./use-refusals.ts";

type Props = { filters: RefusalFilters; onChange: (filters: RefusalFilters) => void };

/** Narrows the refusals to one host, one reason, or both. */
export function RefusalFilterFields({ filters, onChange }: Props) {
  return (
    <Stack direction="row" useFlexGap spacing={2} sx={{ flexWrap: "wrap" }}>
      <TextField
        label="Host"
        size="small"
        value={filters.host}
        onChange={(event) => onChange({ ...filters, host: event.target.value })}
      />
      <TextField
        select
        label="Reason"
        size="small"
        sx={{ minWidth: 240 }}
        value={filters.reason}
        onChange={(event) => onChange({ ...filters, reason: event.target.value })}
      >
        <MenuItem value="">Any reason</MenuItem>
        {REFUSAL_REASONS.map((reason) => (
          <MenuItem key={reason.code} value={reason.code}>
            {reason.label}
          </MenuItem>
        ))}
      </TextField>
    </Stack>
  );
}
