import { useState } from "react";
import { Alert, Box, Button, Paper, Stack, Typography } from "@mui/material";
import type { FeResponse } from "../../lib/fe-client.ts";
import type { Exchange, ExchangeRequest, LookupResult } from "../../lib/wire-types.ts";

/**
 * "Show exchange": what the server sent for the lookup and what came back, hop by hop (Corral's
 * `exchange` in the lookup's answer; docs/lookup-exchange.md). A server that does not report it
 * (cattle_grid) is said so in a sentence.
 */
export function LookupExchange({ result }: { result: FeResponse<LookupResult> }) {
  const [open, setOpen] = useState(false);
  const exchange = result.ok ? (result.data as { exchange?: Exchange }).exchange : undefined;
  return (
    <Box sx={{ mb: 2 }}>
      <Button
        size="small"
        variant="outlined"
        aria-expanded={open}
        onClick={() => setOpen((was) => !was)}
      >
        {open ? "Hide exchange" : "Show exchange"}
      </Button>
      {open && (
        <Box component="section" aria-label="Exchange" sx={{ mt: 1 }}>
          {!exchange ? (
            <Alert severity="info">
              This server does not report what it sent for a lookup and what came back (only Corral
              does): the exchange is not available here.
            </Alert>
          ) : (
            <Stack spacing={1}>
              {exchange.note && <Typography>{capitalise(exchange.note)}.</Typography>}
              {exchange.requests.map((request, index) => (
                <ExchangeStep key={index} request={request} n={index + 1} />
              ))}
            </Stack>
          )}
        </Box>
      )}
    </Box>
  );
}

function ExchangeStep({ request, n }: { request: ExchangeRequest; n: number }) {
  const { answer } = request;
  return (
    <Paper variant="outlined" component="article" aria-label={`Request ${n}`} sx={{ p: 1 }}>
      <Typography variant="subtitle2" component="h3" sx={{ wordBreak: "break-all" }}>
        {n}. {request.method} {request.url}
      </Typography>
      <Typography variant="body2">
        {request.signedAs ? `Signed as ${request.signedAs}` : "Unsigned"}
      </Typography>
      <Headers title="Sent" headers={request.headers} />
      {answer ? (
        <>
          <Typography variant="body2">
            Answer: {answer.status} {answer.statusText}, first byte after {answer.ttfbMs} ms,{" "}
            {answer.totalMs} ms in all
          </Typography>
          <Headers title="Answer headers" headers={answer.headers} />
        </>
      ) : (
        <Typography variant="body2">No answer: {request.error ?? "none came"}</Typography>
      )}
      {request.redirectTo && (
        <Typography variant="body2" sx={{ wordBreak: "break-all" }}>
          Redirected to {request.redirectTo}
        </Typography>
      )}
    </Paper>
  );
}

function Headers({ title, headers }: { title: string; headers: Record<string, string> }) {
  const names = Object.keys(headers).sort();
  if (names.length === 0) return null;
  return (
    <Box
      component="pre"
      aria-label={title}
      sx={{
        m: 0,
        my: 0.5,
        p: 1,
        bgcolor: "action.hover",
        whiteSpace: "pre-wrap",
        overflowWrap: "anywhere",
        fontSize: "0.8rem",
      }}
    >
      {names.map((name) => `${name}: ${headers[name]}`).join("\n")}
    </Box>
  );
}

/** Raises a sentence's first letter, unless the sentence opens with a URI (`http://…`, `acct:…`). */
const capitalise = (text: string) =>
  /^[a-z][a-z0-9+.-]*:\S/i.test(text) ? text : text[0]!.toUpperCase() + text.slice(1);
