import {
  Button,
  FormControl,
  FormHelperText,
  InputLabel,
  MenuItem,
  Select,
  Stack,
} from "@mui/material";
import type { MethodInformation } from "../../lib/wire-types.ts";

type Props = {
  methods: readonly MethodInformation[];
  /** The chosen routing key, "" for none. */
  method: string;
  onChange: (method: string) => void;
  /** Absent when there is no example for the chosen method. */
  onInsertExample: (() => void) | null;
};

/** 'Method to perform', the chosen method's description under it, and "Insert example". */
export function MethodPicker({ methods, method, onChange, onInsertExample }: Props) {
  const description = methods.find((m) => m.routing_key === method)?.description;
  return (
    <Stack
      direction="row"
      spacing={2}
      useFlexGap
      sx={{ alignItems: "flex-start", flexWrap: "wrap" }}
    >
      <FormControl sx={{ width: 400, maxWidth: "100%" }}>
        <InputLabel id="perform-method-label">Method to perform</InputLabel>
        <Select
          labelId="perform-method-label"
          id="perform-method"
          label="Method to perform"
          value={method}
          onChange={(event) => onChange(event.target.value)}
          // The description is the select's description for screen readers too.
          SelectDisplayProps={
            description ? { "aria-describedby": "perform-method-description" } : undefined
          }
        >
          {methods.map((m) => (
            <MenuItem key={m.routing_key} value={m.routing_key}>
              {m.routing_key}
            </MenuItem>
          ))}
        </Select>
        {description && (
          <FormHelperText id="perform-method-description">{description}</FormHelperText>
        )}
      </FormControl>
      <Button
        variant="outlined"
        disabled={onInsertExample === null}
        onClick={() => onInsertExample?.()}
        sx={{ mt: 1 }}
      >
        Insert example
      </Button>
    </Stack>
  );
}
