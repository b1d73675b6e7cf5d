import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { act, render, screen, waitFor } from "@testing-library/react";
import { getFeBaseUrl, setFeBaseUrl } from "../../lib/fe-client.ts";
import { getStreamStore, STREAM_TYPES } from "../../lib/streams/stream-store.ts";
import { forgetCapabilities } from "../../lib/server-capabilities.ts";
import { resetUserStore, useUserStore } from "../../lib/user-store.ts";
import { startSseServer, type SseServer } from "../../test/sse-server.ts";
import { useStreamConnections } from "./use-stream-connections.ts";
import { useStreamCount } from "./use-stream-count.ts";

let server: SseServer | undefined;
const originalBase = getFeBaseUrl();

async function resetAllStreams() {
  for (const type of STREAM_TYPES) {
    const store = getStreamStore(type);
    await store.whenIdle();
    store.getState().reset();
    store.setState({ lastEventId: null });
    await store.whenIdle();
  }
}

beforeEach(resetAllStreams);
afterEach(async () => {
  act(() => resetUserStore());
  await server?.close();
  server = undefined;
  forgetCapabilities();
  localStorage.clear();
  setFeBaseUrl(originalBase);
  await resetAllStreams();
});

function Badges() {
  useStreamConnections();
  return (
    <ul>
      {STREAM_TYPES.map((type) => (
        <Badge key={type} type={type} />
      ))}
    </ul>
  );
}

function Badge({ type }: { type: (typeof STREAM_TYPES)[number] }) {
  return <li>{`${type}: ${useStreamCount(type)}`}</li>;
}

describe("useStreamConnections", () => {
  it("connects all three streams with the token and counts their messages for the badges", async () => {
    server = await startSseServer((c) => {
      c.open();
      const type = c.path.split("/").at(-1);
      const count = type === "incoming" ? 3 : type === "outgoing" ? 2 : 1;
      for (let i = 0; i < count; i++) c.send(`id: ${type}-${i}\ndata: {"n":${i}}\n\n`);
    });
    setFeBaseUrl(new URL("/fe", server.url).href);
    act(() => useUserStore.getState().setToken("secret-token"));
    render(<Badges />);
    // Each stream applies its messages on its own schedule: wait for all three counts together.
    await waitFor(
      () => {
        expect(screen.getByText("incoming: 3")).toBeInTheDocument();
        expect(screen.getByText("outgoing: 2")).toBeInTheDocument();
        expect(screen.getByText("error: 1")).toBeInTheDocument();
      },
      { timeout: 5000 },
    );
    // A browser that never saw the streams also asks for their retained events (server-history.ts).
    const streamPaths = server.connections.map((c) => c.path).filter((p) => p.includes("/stream/"));
    expect(streamPaths.sort()).toEqual([
      "/fe/account/stream/error",
      "/fe/account/stream/incoming",
      "/fe/account/stream/outgoing",
    ]);
    expect(server.connections.every((c) => c.headers.authorization === "Bearer secret-token")).toBe(
      true,
    );
  });

  it("does not connect without a token and disconnects on logout", async () => {
    const closed: string[] = [];
    server = await startSseServer((c) => {
      c.open();
      c.response.on("close", () => closed.push(c.path));
    });
    setFeBaseUrl(new URL("/fe", server.url).href);
    render(<Badges />);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(server.connections).toHaveLength(0);
    act(() => useUserStore.getState().setToken("t"));
    await server.waitForConnections(3);
    act(() => useUserStore.getState().setToken(null));
    await waitFor(() => expect(closed).toHaveLength(3), { timeout: 5000 });
  });

  it("signs out when a stream answers 401, as the info call does", async () => {
    server = await startSseServer((c) => {
      if (c.path.endsWith("/error")) c.response.writeHead(401).end('{"detail":"token ended"}');
      else c.open();
    });
    setFeBaseUrl(new URL("/fe", server.url).href);
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    act(() => useUserStore.getState().setToken("revoked"));
    render(<Badges />);
    await waitFor(() => expect(useUserStore.getState().token).toBeNull(), { timeout: 5000 });
    expect(error).toHaveBeenCalledWith(expect.stringContaining("status 401"));
    error.mockRestore();
  });

  it("resumes a stream after the last stored event id", async () => {
    const incoming = getStreamStore("incoming");
    incoming.getState().add({ earlier: true }, "ev-99");
    await incoming.whenIdle();
    server = await startSseServer((c) => c.open());
    setFeBaseUrl(new URL("/fe", server.url).href);
    act(() => useUserStore.getState().setToken("t"));
    render(<Badges />);
    await server.waitForConnections(3);
    const resumed = server.connections.find((c) => c.path.endsWith("/incoming"));
    expect(resumed?.headers["last-event-id"]).toBe("ev-99");
  });

  it("in front of cattle_grid, reads incoming and outgoing from its combined stream, each event once", async () => {
    const note = (id: string) => ({ id, type: "Create", object: { type: "Note", content: id } });
    const event = (type: string, id: string, historyId: string | null) => ({
      data: { raw: note(id), parsed: {} },
      actor: "http://cg.example/actor/bob",
      event_type: type,
      history_id: historyId,
    });
    server = await startSseServer(
      (c) => {
        c.open();
        if (!c.path.endsWith("/combined")) return;
        // No ids, as cattle_grid; the first event is also in its history (there history_id null).
        c.send(`data: ${JSON.stringify(event("incoming", "http://cg.example/a/1", "0193-a"))}\n\n`);
        c.send(`data: ${JSON.stringify(event("outgoing", "http://cg.example/a/2", "0193-b"))}\n\n`);
        c.send(`data: ${JSON.stringify(event("incoming", "http://cg.example/a/3", "0193-c"))}\n\n`);
      },
      {
        "/account/info": { backend: { name: "cattle_grid", version: "0.5.22" } },
        "/account/history": { events: [event("incoming", "http://cg.example/a/1", null)] },
      },
    );
    setFeBaseUrl(new URL("/fe", server.url).href);
    act(() => useUserStore.getState().setToken("cattle-token"));
    render(<Badges />);
    await waitFor(
      () => {
        expect(screen.getByText("incoming: 2")).toBeInTheDocument();
        expect(screen.getByText("outgoing: 1")).toBeInTheDocument();
      },
      { timeout: 5000 },
    );
    const streamPaths = server.connections.map((c) => c.path).filter((p) => p.includes("/stream/"));
    expect(streamPaths.sort()).toEqual(["/fe/account/stream/combined", "/fe/account/stream/error"]);
    // Whatever order the history and the live events came in, each is held once.
    const held = getStreamStore("incoming")
      .getState()
      .messages.map((m) => (m.data as { data: { raw: { id: string } } }).data.raw.id);
    expect(held.sort()).toEqual(["http://cg.example/a/1", "http://cg.example/a/3"]);
  });

  it("in front of a Corral proxy recording cattle_grid, reads the three streams with ids and its kept history", async () => {
    server = await startSseServer(
      (c) => {
        if (c.path.includes("/account/events/")) {
          // The newest kept event of each stream: a browser that never saw them is filled.
          const stream = c.path.split("?")[0]!.split("/").at(-1);
          const events = [
            { stream, id: 7, receivedAt: new Date(0).toISOString(), event: { n: 7 } },
          ];
          c.response.writeHead(200, { "Content-Type": "application/json" });
          return void c.response.end(JSON.stringify({ events, more: false, next: null }));
        }
        c.open();
        c.send(`id: 8\ndata: {"n":8}\n\n`);
      },
      {
        "/account/info": {
          backend: { name: "cattle_grid", version: "0.5.22" },
          corralProxy: { events: true, historySource: "recorded", recording: true, retention: 10 },
        },
      },
    );
    setFeBaseUrl(new URL("/fe", server.url).href);
    // A browser that never saw these streams (an earlier test's fill marked them seen).
    for (const type of STREAM_TYPES) getStreamStore(type).setState({ neverConnected: true });
    act(() => useUserStore.getState().setToken("proxy-token"));
    render(<Badges />);
    await waitFor(
      () => {
        for (const type of STREAM_TYPES) expect(screen.getByText(`${type}: 2`)).toBeInTheDocument();
      },
      { timeout: 5000 },
    );
    const paths = server.connections.map((c) => c.path.split("?")[0]);
    expect(paths.filter((p) => p.includes("/stream/")).sort()).toEqual([
      "/fe/account/stream/error",
      "/fe/account/stream/incoming",
      "/fe/account/stream/outgoing",
    ]);
    expect(paths.filter((p) => p.includes("/events/")).sort()).toEqual([
      "/fe/account/events/error",
      "/fe/account/events/incoming",
      "/fe/account/events/outgoing",
    ]);
    // Neither cattle_grid's short history nor its combined stream is asked.
    expect(paths.some((p) => p.endsWith("/history") || p.endsWith("/combined"))).toBe(false);
    expect(
      getStreamStore("incoming")
        .getState()
        .messages.map((m) => m.id),
    ).toEqual(["7", "8"]);
  });
});
