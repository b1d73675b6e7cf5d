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
};

/**
 * Calls `${base}${path}` with a JSON body and reads the answer as JSON. An empty or 204 answer
 * reads as `{}`. A non-OK answer is returned with its parsed error body; HTTP errors never throw
 * (network failures still do, they are not answers).
 */
export async function callFe<T>(path: string, request: FeRequest = {}): Promise<FeResponse<T>> {
  const headers: Record<string, string> = { Accept: "application/json" };
  if (request.body !== undefined) headers["Content-Type"] = "application/json";
  const token = useUserStore.getState().token;
  if (token && !request.anonymous) headers.Authorization = `Bearer ${token}`;

  const response = await fetch(`${baseUrl}${path}`, {
    method: request.method ?? (request.body === undefined ? "GET" : "POST"),
    headers,
    body: request.body === undefined ? undefined : JSON.stringify(request.body),
    signal: request.signal,
  });
  const data = await readJsonBody(response);
  let result: FeResponse<T>;
  if (response.ok) result = { ok: true, status: response.status, data: data as T };
  else {
    result = { ok: false, status: response.status, data };
    const retryAfter = readRetryAfter(response.headers.get("Retry-After"));
    if (retryAfter !== undefined) result.retryAfter = retryAfter;
  }
  if (request.readHeaders) result.headers = pickHeaders(response.headers, request.readHeaders);
  return result;
}

function pickHeaders(headers: Headers, names: readonly string[]): FeHeaders {
  const picked: FeHeaders = {};
  for (const name of names) {
    const value = headers.get(name);
    if (value !== null) picked[name] = value;
  }
  return picked;
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
