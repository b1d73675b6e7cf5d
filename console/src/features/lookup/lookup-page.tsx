import { useEffect, useState } from "react";
import { useSearchParams } from "react-router";
import { Alert, Box, TextField, Typography } from "@mui/material";
import { JsonTree } from "../../components/json-tree/index.ts";
import type { FeResponse } from "../../lib/fe-client.ts";
import { useUserStore } from "../../lib/user-store.ts";
import type { LookupResult } from "../../lib/wire-types.ts";
import { useLookup } from "./use-lookup.ts";

export function LookupPage() {
  const currentActor = useUserStore((state) => state.currentActor);
  const [searchParams, setSearchParams] = useSearchParams();
  const uriParam = searchParams.get("uri") ?? "";
  const [field, setField] = useState("");
  const { result, lookup } = useLookup(currentActor);

  // A uri arriving in the address (a link clicked in any JSON tree) fills the field and is looked
  // up. Only a change of the parameter counts: typing in the field must not trigger lookups, so
  // field is read here but deliberately left out of the dependencies.
  useEffect(() => {
    if (currentActor === null || uriParam === "" || uriParam === field) return;
    setField(uriParam);
    void lookup(uriParam);
  }, [uriParam, currentActor, lookup]);

  if (currentActor === null) return <Typography>Loading...</Typography>;

  function lookUpField() {
    const uri = field.trim();
    if (uri === "") return;
    if (uri !== field) setField(uri);
    if (uri !== uriParam) setSearchParams({ uri });
    void lookup(uri);
  }

  return (
    <>
      <TextField
        id="lookup-uri"
        label="URI"
        fullWidth
        value={field}
        onChange={(event) => setField(event.target.value)}
        onBlur={lookUpField}
      />
      <Box
        component="pre"
        data-testid="curl-example"
        sx={{ my: 2, p: 1, bgcolor: "action.hover", overflowX: "auto", whiteSpace: "pre-wrap" }}
      >
        curl -H 'Accept: application/activity+json' &apos;{field.trim() || "URI"}&apos;
      </Box>
      {result && <LookupFailure result={result} />}
      {result && <JsonTree data={result.data} />}
    </>
  );
}

/** Says in words why a lookup found nothing; the tree below still shows the whole answer. */
function LookupFailure({ result }: { result: FeResponse<LookupResult> }) {
  const data = result.data as { raw?: unknown; error?: unknown; detail?: unknown } | null;
  if (result.ok && data?.raw !== null) return null;
  const reason = data?.error ?? data?.detail ?? "no reason given";
  const prefix = result.ok ? "Not found" : `Lookup failed (HTTP ${result.status})`;
  return (
    <Alert severity="warning" sx={{ mb: 2 }}>
      {prefix}: {typeof reason === "string" ? reason : JSON.stringify(reason)}
    </Alert>
  );
}
