import {
  describeAway,
  isGatewayStatus,
  noteServerAnswered,
  noteServerAway,
} from "./server-reachability.ts";
import { useUserStore } from "./user-store.ts";

// The one fetch wrapper for the account API. Everything under /fe goes through here so that the
// bearer header, JSON handling and "errors are values" live in one place.

let baseUrl = "/fe";

/** Points the client at another /fe (tests start their own server on 127.0.0.1). */
export function setFeBaseUrl(url: string): void {
  baseUrl = url.replace(/\/+$/, "");
}

export function getFeBaseUrl(): string {
  return baseUrl;
}

export type FeRequest = {
  method?: "GET" | "POST";
  body?: unknown;
  /** Sign-in is the one call that must not carry the bearer header. */
  anonymous?: boolean;
  /** Lets a hook drop an answer nobody waits for any more. */
  signal?: AbortSignal;
  /**
   * Response headers the caller needs (Corral's additions such as Corral-Trigger-Id); the answer
   * then carries `headers` with those present, keyed as asked.
   */
  readHeaders?: readonly string[];
  /**
   * Asks for NDJSON (`Accept: application/x-ndjson`) and hears each line as it arrives; `data` is
   * then the last line. An answer in plain JSON (a server that does not stream) is read as usual.
   */
  onLine?: (line: unknown) => void;
};

export type FeHeaders = Record<string, string>;
export type FeResponse<T> = { ok: true; status: number; data: T; headers?: FeHeaders } | FeError;
export type FeError = {
  ok: false;
  status: number;
  data: unknown;
  /** Seconds from a Retry-After header (a 429's or 503's "try again after"). */
  retryAfter?: number;
  headers?: FeHeaders;
  /**
   * The server is away: no answer (status 0) or a gateway's 502, 503 or 504. `data.detail` then
   * says so in one sentence, the same on every page, and the call works again once it is back.
   */
  unreachable?: true;
};

/**
 * Calls `${base}${path}` with a JSON body and reads the answer as JSON. An empty or 204 answer
 * reads as `{}`. A non-OK answer is returned with its parsed error body. Nothing throws but an
 * abort: no answer at all is an error value too (status 0, `unreachable`).
 */
export async function callFe<T>(path: string, request: FeRequest = {}): Promise<FeResponse<T>> {
  const headers: Record<string, string> = {
    Accept: request.onLine ? `${NDJSON}, application/json` : "application/json",
  };
  if (request.body !== undefined) headers["Content-Type"] = "application/json";
  const token = useUserStore.getState().token;
  if (token && !request.anonymous) headers.Authorization = `Bearer ${token}`;

  let response: Response;
  let data: unknown;
  try {
    response = await fetch(`${baseUrl}${path}`, {
      method: request.method ?? (request.body === undefined ? "GET" : "POST"),
      headers,
      body: request.body === undefined ? undefined : JSON.stringify(request.body),
      signal: request.signal,
    });
    data =
      request.onLine && response.ok && isNdjson(response)
        ? await readNdjsonBody(response, request.onLine)
        : await readJsonBody(response);
  } catch (failure) {
    if (request.signal?.aborted) throw failure;
    const cause = `no answer: ${failure instanceof Error ? failure.message : String(failure)}`;
    noteServerAway(cause);
    return { ok: false, status: 0, data: { detail: describeAway(cause) }, unreachable: true };
  }
  let result: FeResponse<T>;
  if (response.ok) result = { ok: true, status: response.status, data: data as T };
  else if (isGatewayStatus(response.status)) {
    const cause = describeGatewayAnswer(response, data);
    noteServerAway(cause);
    result = { ok: false, status: response.status, data: { detail: describeAway(cause) } };
    result.unreachable = true;
    const retryAfter = readRetryAfter(response.headers.get("Retry-After"));
    if (retryAfter !== undefined) result.retryAfter = retryAfter;
  } else {
    result = { ok: false, status: response.status, data };
    const retryAfter = readRetryAfter(response.headers.get("Retry-After"));
    if (retryAfter !== undefined) result.retryAfter = retryAfter;
  }
  if (result.ok || result.unreachable !== true) noteServerAnswered();
  if (request.readHeaders) result.headers = pickHeaders(response.headers, request.readHeaders);
  return result;
}

/**
 * "HTTP 502" and the gateway's own reason when it gave one in JSON (Corral's proxy mode names the
 * upstream and why); an HTML error page (nginx) adds nothing a person needs.
 */
function describeGatewayAnswer(response: Response, data: unknown): string {
  const detail = (data as { detail?: unknown } | null)?.detail;
  const json = response.headers.get("content-type")?.includes("json") ?? false;
  const reason = json && typeof detail === "string" ? `: ${detail}` : "";
  return `HTTP ${response.status}${reason}`;
}

function pickHeaders(headers: Headers, names: readonly string[]): FeHeaders {
  const picked: FeHeaders = {};
  for (const name of names) {
    const value = headers.get(name);
    if (value !== null) picked[name] = value;
  }
  return picked;
}

const NDJSON = "application/x-ndjson";
const isNdjson = (response: Response) =>
  (response.headers.get("Content-Type") ?? "").split(";")[0]!.trim() === NDJSON;

/** Reads an NDJSON answer line by line as it arrives; the last line is the answer's data. */
async function readNdjsonBody(response: Response, onLine: (line: unknown) => void) {
  let last: unknown = {};
  let pending = "";
  const take = (text: string) => {
    if (text.trim() === "") return;
    last = JSON.parse(text);
    onLine(last);
  };
  const decoder = new TextDecoder();
  const reader = response.body!.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    pending += decoder.decode(value, { stream: !done });
    const lines = pending.split("\n");
    pending = lines.pop()!;
    for (const line of lines) take(line);
    if (done) break;
  }
  take(pending);
  return last;
}

async function readJsonBody(response: Response): Promise<unknown> {
  if (response.status === 204) return {};
  const text = await response.text();
  if (text.trim() === "") return {};
  try {
    return JSON.parse(text);
  } catch {
    // A proxy's HTML error page is still an answer: keep its text rather than throwing.
    return { detail: text };
  }
}

/** Retry-After as seconds from now: either a number of seconds or an HTTP date. */
function readRetryAfter(header: string | null): number | undefined {
  if (header === null || header.trim() === "") return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim());
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.round((at - Date.now()) / 1000));
}
