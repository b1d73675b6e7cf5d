import { afterEach, describe, expect, it, vi } from "vitest";
import { startSseServer, type SseServer } from "../../test/sse-server.ts";
import { reachability } from "../server-reachability.ts";
import {
  DEFAULT_RETRY_MS,
  chooseBackoffDelay,
  chooseRetryDelay,
  readRetryAfterMs,
  openEventStream,
  describeOpenFailure,
  parseFrameData,
  type EventStreamHandle,
} from "./event-stream.ts";

let server: SseServer | undefined;
let stream: EventStreamHandle | undefined;

afterEach(async () => {
  stream?.close();
  await server?.close();
  server = stream = undefined;
  vi.restoreAllMocks();
  reachability.setState({ away: null });
});

function collect() {
  const received: Array<{ message: unknown; id: string | null }> = [];
  return {
    received,
    onMessage: (message: unknown, id: string | null) => received.push({ message, id }),
  };
}

async function waitUntil(check: () => boolean, timeoutMs = 3000): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe("openEventStream", () => {
  it("sends the bearer token and Accept: text/event-stream and passes parsed JSON on", async () => {
    server = await startSseServer((c) => {
      c.open();
      c.send('id: 1\ndata: {"data":{"n":1}}\n\n');
    });
    const { received, onMessage } = collect();
    stream = openEventStream({ url: server.url, token: "tok-123", onMessage });
    await waitUntil(() => received.length === 1);
    expect(received[0]).toEqual({ message: { data: { n: 1 } }, id: "1" });
    expect(server.connections[0]!.headers.authorization).toBe("Bearer tok-123");
    expect(server.connections[0]!.headers.accept).toBe("text/event-stream");
  });

  it("reports a frame with an id and no message as a position, not a message", async () => {
    server = await startSseServer((c) => {
      c.open();
      c.send(": connected\n\nid: 41\n\n");
      c.send('id: 42\ndata: {"n":42}\n\n');
    });
    const { received, onMessage } = collect();
    const positions: string[] = [];
    stream = openEventStream({
      url: server.url,
      token: "t",
      onMessage,
      onPosition: (id) => positions.push(id),
    });
    await waitUntil(() => received.length === 1);
    expect(positions).toEqual(["41"]);
    expect(received).toEqual([{ message: { n: 42 }, id: "42" }]);
  });

  it("ignores heartbeats and other unparseable data frames", async () => {
    server = await startSseServer((c) => {
      c.open();
      c.send("data: : <3\n\n");
      c.send("data: not json\n\n");
      c.send('data: {"after":"heartbeat"}\n\n');
    });
    const { received, onMessage } = collect();
    stream = openEventStream({ url: server.url, token: "t", onMessage });
    await waitUntil(() => received.length > 0);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(received.map((r) => r.message)).toEqual([{ after: "heartbeat" }]);
  });

  it("reconnects after the server closes the stream, after the server's retry value, resending the last event id", async () => {
    server = await startSseServer((c) => {
      c.open();
      if (c.index === 0) {
        c.send("retry: 150\n\n");
        c.send('id: ev-7\ndata: {"seq":7}\n\n');
        c.response.end();
      } else {
        c.send('id: ev-8\ndata: {"seq":8}\n\n');
      }
    });
    const { received, onMessage } = collect();
    vi.spyOn(console, "info").mockImplementation(() => {});
    stream = openEventStream({ url: server.url, token: "t", onMessage });
    await waitUntil(() => received.length === 1);
    const closedAt = Date.now();
    await server.waitForConnections(2);
    const waited = Date.now() - closedAt;
    await waitUntil(() => received.length === 2);
    expect(server.connections[1]!.headers["last-event-id"]).toBe("ev-7");
    expect(server.connections[1]!.headers.authorization).toBe("Bearer t");
    expect(waited).toBeGreaterThanOrEqual(120);
    expect(waited).toBeLessThan(DEFAULT_RETRY_MS);
    expect(received.map((r) => r.id)).toEqual(["ev-7", "ev-8"]);
  });

  it("sends a remembered event id as Last-Event-ID on the first request", async () => {
    server = await startSseServer((c) => c.open());
    stream = openEventStream({
      url: server.url,
      token: "t",
      lastEventId: "ev-41",
      onMessage: () => {},
    });
    await server.waitForConnections(1);
    expect(server.connections[0]!.headers["last-event-id"]).toBe("ev-41");
  });

  it("logs a warning and reconnects after a network error", async () => {
    server = await startSseServer((c) => {
      c.open();
      if (c.index === 0) {
        c.send('id: 1\ndata: {"a":1}\n\n');
        setTimeout(() => c.response.socket?.destroy(), 20);
      }
    });
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    stream = openEventStream({
      url: server.url,
      token: "t",
      onMessage: () => {},
      defaultRetryMs: 50,
    });
    await server.waitForConnections(2);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining("reconnecting in 50 ms"));
    expect(server.connections[1]!.headers["last-event-id"]).toBe("1");
  });

  it("retries a gateway's 502, 503 and 504 with a growing delay, then resumes after the last id", async () => {
    const answers = [502, 503, 504];
    server = await startSseServer((c) => {
      if (c.index === 0) {
        c.open();
        c.send('id: 5\ndata: {"n":5}\n\n');
        setTimeout(() => c.response.socket?.destroy(), 20);
      } else if (c.index <= answers.length) {
        c.response
          .writeHead(answers[c.index - 1]!, { "Content-Type": "text/html" })
          .end("<h1>Bad Gateway</h1>");
      } else {
        c.open();
        c.send('id: 6\ndata: {"n":6}\n\n');
      }
    });
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const { received, onMessage } = collect();
    const retries: Array<[number, string]> = [];
    const onFatal = vi.fn();
    stream = openEventStream({
      url: server.url,
      token: "t",
      onMessage,
      onFatal,
      onRetry: (delay, cause) => retries.push([delay, cause]),
      defaultRetryMs: 40,
    });
    await waitUntil(() => received.length === 2);
    // The dropped connection, then each gateway answer: 40, 40, 80, 80 ms.
    expect(retries).toEqual([
      [40, "unreachable"],
      [40, "unreachable"],
      [80, "unreachable"],
      [80, "unreachable"],
    ]);
    expect(onFatal).not.toHaveBeenCalled();
    expect(server.connections).toHaveLength(5);
    expect(server.connections[4]!.headers["last-event-id"]).toBe("5");
    expect(reachability.getState().away).toBeNull();
  });

  it("waits as long as a gateway's Retry-After says", async () => {
    server = await startSseServer((c) => {
      if (c.index === 0) c.response.writeHead(503, { "Retry-After": "1" }).end();
      else c.open();
    });
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const retries: number[] = [];
    stream = openEventStream({
      url: server.url,
      token: "t",
      onMessage: () => {},
      onRetry: (delay) => retries.push(delay),
      defaultRetryMs: 20,
    });
    const started = Date.now();
    await server.waitForConnections(2);
    expect(retries).toEqual([1000]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });

  it("reconnects at once when asked, cutting the delay short", async () => {
    server = await startSseServer((c) => {
      if (c.index === 0) c.response.writeHead(502).end();
      else c.open();
    });
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const retried = vi.fn();
    stream = openEventStream({
      url: server.url,
      token: "t",
      onMessage: () => {},
      onRetry: retried,
      defaultRetryMs: 60_000,
    });
    await waitUntil(() => retried.mock.calls.length === 1);
    stream.reconnect();
    await server.waitForConnections(2);
  });

  it("reconnects at once when another call finds the server back after a reconnect failed too", async () => {
    server = await startSseServer((c) => {
      if (c.index <= 1) c.response.writeHead(502).end();
      else c.open();
    });
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const retried = vi.fn();
    stream = openEventStream({
      url: server.url,
      token: "t",
      onMessage: () => {},
      onRetry: retried,
      defaultRetryMs: 60_000,
    });
    await waitUntil(() => retried.mock.calls.length === 1);
    expect(reachability.getState().away?.reason).toBe("HTTP 502");
    // The first delay is waited out whatever else answers (docs/console-guide.md#streams: 5000 ms after a
    // failure).
    reachability.setState({ away: null });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(server.connections).toHaveLength(1);
    stream.reconnect();
    await waitUntil(() => retried.mock.calls.length === 2);
    reachability.setState({ away: null });
    await server.waitForConnections(3);
  });

  it("is hurried by such news once per run of failures, not at every answer", async () => {
    server = await startSseServer((c) => c.response.writeHead(503).end());
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const retried = vi.fn();
    stream = openEventStream({
      url: server.url,
      token: "t",
      onMessage: () => {},
      onRetry: retried,
      defaultRetryMs: 60_000,
    });
    await waitUntil(() => retried.mock.calls.length === 1);
    stream.reconnect();
    await waitUntil(() => retried.mock.calls.length === 2);
    reachability.setState({ away: null });
    await waitUntil(() => retried.mock.calls.length === 3);
    reachability.setState({ away: null });
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(server.connections).toHaveLength(3);
  });

  it("starts again after a fatal answer when asked to reconnect", async () => {
    server = await startSseServer((c) => {
      if (c.index === 0) c.response.writeHead(404).end();
      else c.open();
    });
    vi.spyOn(console, "error").mockImplementation(() => {});
    const onFatal = vi.fn();
    const onOpen = vi.fn();
    stream = openEventStream({ url: server.url, token: "t", onMessage: () => {}, onFatal, onOpen });
    expect(await stream.done).toBe("fatal");
    expect(onFatal).toHaveBeenCalledWith("status 404", 404);
    stream.reconnect();
    await waitUntil(() => onOpen.mock.calls.length === 1);
  });

  it.each([
    ["a 401 answer", 401, "text/event-stream", "status 401"],
    ["a 404 answer", 404, "application/json", "status 404"],
    ["a 500 answer", 500, "text/event-stream", "status 500"],
    [
      "a content type that is not text/event-stream",
      200,
      "application/json",
      "content type application/json",
    ],
  ])("gives up for good on %s and logs why", async (_name, status, type, reason) => {
    server = await startSseServer((c) => {
      c.response.writeHead(status, { "Content-Type": type }).end("{}");
    });
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    const onFatal = vi.fn();
    stream = openEventStream({
      url: server.url,
      token: "t",
      onMessage: () => {},
      onFatal,
      defaultRetryMs: 20,
    });
    expect(await stream.done).toBe("fatal");
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(server.connections).toHaveLength(1);
    expect(onFatal).toHaveBeenCalledWith(expect.stringContaining(reason), status);
    expect(error).toHaveBeenCalledWith(expect.stringContaining(reason));
  });

  it("keeps the stream open while the tab is hidden", async () => {
    server = await startSseServer((c) => {
      c.open();
      setTimeout(() => c.send('data: {"while":"hidden"}\n\n'), 100);
    });
    const { received, onMessage } = collect();
    stream = openEventStream({ url: server.url, token: "t", onMessage });
    await server.waitForConnections(1);
    Object.defineProperty(document, "hidden", { configurable: true, get: () => true });
    try {
      document.dispatchEvent(new Event("visibilitychange"));
      await waitUntil(() => received.length === 1);
    } finally {
      Reflect.deleteProperty(document, "hidden");
    }
    expect(server.connections).toHaveLength(1);
    expect(received[0]!.message).toEqual({ while: "hidden" });
  });

  it("stops reconnecting once closed", async () => {
    server = await startSseServer((c) => {
      c.open();
      c.response.end();
    });
    vi.spyOn(console, "info").mockImplementation(() => {});
    stream = openEventStream({
      url: server.url,
      token: "t",
      onMessage: () => {},
      defaultRetryMs: 30,
    });
    await server.waitForConnections(1);
    stream.close();
    expect(await stream.done).toBe("closed");
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(server.connections).toHaveLength(1);
  });
});

describe("chooseRetryDelay", () => {
  it("waits 5000 ms by default", () => {
    expect(chooseRetryDelay(null)).toBe(5000);
  });

  it("uses the server's retry value when it sent one", () => {
    expect(chooseRetryDelay(1200)).toBe(1200);
    expect(chooseRetryDelay(0)).toBe(0);
  });
});

describe("chooseBackoffDelay", () => {
  it("grows from the base with each failure in a row, up to 60 s", () => {
    const delays = [1, 2, 3, 4, 5, 6, 7, 8].map((failures) => chooseBackoffDelay(failures, 5000));
    expect(delays).toEqual([5000, 5000, 10_000, 10_000, 20_000, 40_000, 60_000, 60_000]);
  });

  it("takes a Retry-After instead, at most 10 minutes", () => {
    expect(chooseBackoffDelay(3, 5000, 2000)).toBe(2000);
    expect(chooseBackoffDelay(1, 5000, 3_600_000)).toBe(600_000);
  });
});

describe("readRetryAfterMs", () => {
  it("reads seconds and HTTP dates", () => {
    expect(readRetryAfterMs("7")).toBe(7000);
    expect(readRetryAfterMs(new Date(10_000).toUTCString(), 4000)).toBe(6000);
    expect(readRetryAfterMs(null)).toBeNull();
    expect(readRetryAfterMs("soon")).toBeNull();
  });
});

describe("parseFrameData", () => {
  it("reads JSON and skips anything else", () => {
    expect(parseFrameData('{"a":[1]}')).toEqual({ ok: true, value: { a: [1] } });
    expect(parseFrameData(": <3")).toEqual({ ok: false });
    expect(parseFrameData("")).toEqual({ ok: false });
  });
});

describe("describeOpenFailure", () => {
  it("refuses a 200 answer without a body", () => {
    const response = new Response(null, {
      status: 200,
      headers: { "Content-Type": "text/event-stream" },
    });
    expect(describeOpenFailure(response)).toBe("no body");
  });

  it("accepts a 200 event stream with a charset", () => {
    const response = new Response("", {
      status: 200,
      headers: { "Content-Type": "text/event-stream; charset=utf-8" },
    });
    expect(describeOpenFailure(response)).toBeNull();
  });
});
