import { useEffect, useRef, useState } from "react";
import { useSearchParams } from "react-router";
import { Box, LinearProgress, TextField, Typography } from "@mui/material";
import { JsonTree } from "../../components/json-tree/index.ts";
import { useUserStore } from "../../lib/user-store.ts";
import { curlLine } from "./curl-line.ts";
import { LookupComparison } from "./lookup-comparison.tsx";
import { LookupExchange } from "./lookup-exchange.tsx";
import { LookupFailure } from "./lookup-failure.tsx";
import { useLookupHistory } from "./lookup-history.ts";
import { RecentLookups } from "./recent-lookups.tsx";
import { useLookup } from "./use-lookup.ts";

export function LookupPage() {
  const currentActor = useUserStore((state) => state.currentActor);
  const [searchParams, setSearchParams] = useSearchParams();
  const uriParam = searchParams.get("uri") ?? "";
  const [field, setField] = useState("");
  const { uri, result, pending, lookup } = useLookup(currentActor);
  const recent = useLookupHistory((state) => state.recent);
  const [comparing, setComparing] = useState<string[]>([]);
  // Enter looks up, and leaving the field right after must not look the same URI up twice; any
  // other leaving of the field looks up again (the document may have changed meanwhile).
  const enteredSinceFocus = useRef<string | null>(null);

  // A uri arriving in the address (a link clicked in any JSON tree) fills the field and is looked
  // up. Only a change of the parameter counts: typing in the field must not trigger lookups, so
  // field is read here but deliberately left out of the dependencies.
  useEffect(() => {
    if (currentActor === null || uriParam === "" || uriParam === field) return;
    setField(uriParam);
    void lookup(uriParam);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- field is left out, as said above
  }, [uriParam, currentActor, lookup]);

  if (currentActor === null) return <Typography>Loading...</Typography>;

  function run(text: string) {
    const target = text.trim();
    if (target === "") return;
    if (target !== field) setField(target);
    if (target !== uriParam) setSearchParams({ uri: target });
    void lookup(target);
  }

  function toggleCompare(chosen: string) {
    setComparing((previous) =>
      previous.includes(chosen)
        ? previous.filter((item) => item !== chosen)
        : [...previous.slice(-1), chosen].slice(-2),
    );
  }

  const raw = result?.ok ? result.data.raw : null;
  const answered = uri === field.trim();
  // A failed lookup's `url` (a Corral addition): what the server requested, scheme as used.
  const failedUrl = result?.ok && result.data.raw === null ? result.data.url : undefined;
  const shownResult = uri === field.trim() ? result : null;
  const pair = comparing
    .map((id) => recent.find((entry) => entry.id === id))
    .filter((entry) => entry !== undefined)
    .sort((a, b) => a.at - b.at);

  return (
    <>
      <TextField
        id="lookup-uri"
        label="URI"
        fullWidth
        value={field}
        onChange={(event) => setField(event.target.value)}
        onKeyDown={(event) => {
          if (event.key !== "Enter") return;
          enteredSinceFocus.current = field.trim();
          run(field);
        }}
        onFocus={() => (enteredSinceFocus.current = null)}
        onBlur={() => {
          if (field.trim() !== enteredSinceFocus.current) run(field);
        }}
      />
      {pending && <LinearProgress aria-label={`Looking up ${uri}`} sx={{ mt: 1 }} />}
      <Box
        component="pre"
        data-testid="curl-example"
        sx={{
          my: 2,
          p: 1,
          bgcolor: "action.hover",
          overflowX: "auto",
          whiteSpace: "pre-wrap",
          overflowWrap: "anywhere",
        }}
      >
        {curlLine(field, {
          resolvedId: answered && typeof raw?.id === "string" ? raw.id : null,
          requestedUrl: answered && failedUrl ? failedUrl : null,
        })}
      </Box>
      {shownResult && <LookupFailure result={shownResult} />}
      {shownResult && <LookupExchange result={shownResult} />}
      {shownResult && <JsonTree data={withoutExchange(shownResult.data)} />}
      {pair.length === 2 && (
        <LookupComparison before={pair[0]!} after={pair[1]!} onClose={() => setComparing([])} />
      )}
      <RecentLookups
        recent={recent}
        comparing={comparing}
        onRun={(item) => run(item)}
        onCompare={toggleCompare}
      />
    </>
  );
}

/** The answer without Corral's `exchange`: that is shown by "Show exchange", not in the tree. */
function withoutExchange(data: unknown): unknown {
  if (typeof data !== "object" || data === null || !("exchange" in data)) return data;
  const { exchange: _exchange, ...rest } = data as Record<string, unknown>;
  return rest;
}
