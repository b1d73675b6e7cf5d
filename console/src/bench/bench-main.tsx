// A second Vite entry (bench.html), kept out of the console's bundle: it mounts the real JsonTree
// and StreamPage so bench/console.bench.ts can time them in Chromium.
import type { ReactNode } from "react";
import { flushSync } from "react-dom";
import { createRoot, type Root } from "react-dom/client";
import { MemoryRouter, Route, Routes } from "react-router";
import { Providers } from "../app/providers.tsx";
import { JsonTree } from "../components/json-tree/index.ts";
import { useStreamConnections } from "../features/streams/index.ts";
import { StreamPage } from "../features/streams/stream-page.tsx";
import { setFeBaseUrl } from "../lib/fe-client.ts";
import { getStreamStore } from "../lib/streams/stream-store.ts";
import { useUserStore } from "../lib/user-store.ts";
import { useViewPreferences } from "../features/streams/view-preferences.ts";
import { startLongTaskWatch } from "./long-task-watch.ts";
import {
  pauseAndResume,
  readSearchKeys,
  timeFirstPaintedCard,
  watchSearchKeys,
} from "./stream-interactions.ts";

const container = document.getElementById("root")!;
let root: Root | null = null;

function mount(element: ReactNode): void {
  root?.unmount();
  root = createRoot(container);
  flushSync(() => root!.render(<Providers>{element}</Providers>));
}

function nextFrame(): Promise<void> {
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
}

/** Mount time of a JsonTree over an object of `keys` keys: commit, and commit plus first frame. */
async function mountJsonTree(keys: number) {
  const data = Object.fromEntries(
    Array.from({ length: keys }, (_, i) => [`key-${i}`, `value ${i}`]),
  );
  await nextFrame();
  const started = performance.now();
  mount(
    <MemoryRouter>
      <JsonTree data={data} />
    </MemoryRouter>,
  );
  const committed = performance.now();
  await nextFrame();
  const painted = performance.now();
  return {
    commitMs: committed - started,
    firstFrameMs: painted - started,
    rowsInDom: container.querySelectorAll(".jt-row").length,
  };
}

function StreamBench() {
  useStreamConnections();
  return (
    <Routes>
      <Route path="/stream/:streamType" element={<StreamPage />} />
    </Routes>
  );
}

/** Shows the (empty) incoming stream page, signed out so nothing connects yet. */
async function mountStreamPage(feBase: string) {
  setFeBaseUrl(feBase);
  const started = performance.now();
  mount(
    <MemoryRouter initialEntries={["/stream/incoming"]}>
      <StreamBench />
    </MemoryRouter>,
  );
  await getStreamStore("incoming").whenIdle();
  await nextFrame();
  return { mountMs: performance.now() - started };
}

/** Signs in, which connects the real streams, and starts watching the main thread. */
function connectStreams() {
  watch = startLongTaskWatch();
  useUserStore.getState().setToken("bench-token");
}
let watch: ReturnType<typeof startLongTaskWatch> | null = null;

async function readStreamPage() {
  const store = getStreamStore("incoming");
  await store.whenIdle();
  await nextFrame();
  return {
    held: store.getState().messages.length,
    cardsInDom: container.querySelectorAll('[data-testid="stream-message"]').length,
    activityTypes: store.getState().activityTypes,
    storageNote: store.getState().storageNote,
    ...watch!.read(),
  };
}

/** Rows IndexedDB holds for the stream, as a reload would find them. */
async function countStoredRows(): Promise<number> {
  const { openStreamRowsStore } = await import("../lib/streams/idb-stream-rows.ts");
  const rows = await openStreamRowsStore();
  return (await rows.load("stream-storage-incoming")).rows.length;
}

function setView(view: { compact: boolean; newestFirst: boolean }) {
  useViewPreferences.getState().setCompact(view.compact);
  useViewPreferences.getState().setNewestFirst(view.newestFirst);
}

// bench.html?reload=1: mount the stream page at once, as the console does after a reload.
let reloadPaint: ReturnType<typeof timeFirstPaintedCard> | null = null;
if (new URLSearchParams(location.search).has("reload")) {
  reloadPaint = timeFirstPaintedCard();
  mount(
    <MemoryRouter initialEntries={["/stream/incoming"]}>
      <StreamBench />
    </MemoryRouter>,
  );
}

Object.assign(window, {
  corralBench: {
    mountJsonTree,
    mountStreamPage,
    connectStreams,
    readStreamPage,
    countStoredRows,
    setView,
    watchSearchKeys,
    readSearchKeys,
    pauseAndResume,
    reloadPaint: () => reloadPaint,
  },
});
document.title = "bench ready";
