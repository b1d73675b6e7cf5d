import type { StreamWatch } from "./streams.ts";

/**
 * Waits until the stream has sent `count` keep-alive comments: the server enqueues stored events
 * before its next keep-alive, so after two of them everything stored at connect time has arrived.
 * Needs a server started with a small `keepAliveMs`.
 */
export async function settle(watch: StreamWatch, count = 2, timeoutMs = 30_000): Promise<void> {
  await watch.waitFor(
    () => watch.frames.filter((f) => f.comment === "keep-alive").length >= count,
    timeoutMs,
  );
}
