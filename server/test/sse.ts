// A minimal Server-Sent Events reader over fetch, for tests: it keeps every frame (comments
// included) so a test can assert exactly what went over the wire.

export interface SseFrame {
  id?: string;
  data?: string;
  event?: string;
  comment?: string;
}

export interface SseConnection {
  status: number;
  headers: Headers;
  frames: SseFrame[];
  /** Resolves once `count` data frames arrived (fails after `timeoutMs`). */
  waitForData(count: number, timeoutMs?: number): Promise<SseFrame[]>;
  /** Resolves once a frame satisfying `match` arrived. */
  waitFor(match: (frame: SseFrame) => boolean, timeoutMs?: number): Promise<SseFrame>;
  close(): void;
}

export async function openSse(
  url: string,
  headers: Record<string, string>,
): Promise<SseConnection> {
  const controller = new AbortController();
  const response = await fetch(url, { headers, signal: controller.signal });
  const frames: SseFrame[] = [];
  const waiters = new Set<() => void>();
  const notify = () => waiters.forEach((w) => w());
  if (response.body) {
    void (async () => {
      const decoder = new TextDecoder();
      let buffer = "";
      try {
        for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
          buffer += decoder.decode(chunk, { stream: true });
          let end;
          while ((end = buffer.indexOf("\n\n")) >= 0) {
            frames.push(parseFrame(buffer.slice(0, end)));
            buffer = buffer.slice(end + 2);
            notify();
          }
        }
      } catch {
        // aborted by close()
      }
    })();
  }
  const waitFor = (match: (frame: SseFrame) => boolean, timeoutMs = 10_000) =>
    new Promise<SseFrame>((resolve, reject) => {
      const check = () => {
        const found = frames.find(match);
        if (found) {
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
        }
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(
          new Error(`no matching frame within ${timeoutMs} ms; got ${JSON.stringify(frames)}`),
        );
      }, timeoutMs);
      waiters.add(check);
      check();
    });
  return {
    status: response.status,
    headers: response.headers,
    frames,
    waitFor,
    async waitForData(count, timeoutMs) {
      await waitFor(() => frames.filter((f) => f.data !== undefined).length >= count, timeoutMs);
      return frames.filter((f) => f.data !== undefined);
    },
    close: () => controller.abort(),
  };
}

function parseFrame(text: string): SseFrame {
  const frame: SseFrame = {};
  for (const line of text.split("\n")) {
    if (line.startsWith(":")) frame.comment = line.slice(1).trim();
    else {
      const colon = line.indexOf(":");
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
      if (field === "id" || field === "data" || field === "event") frame[field] = value;
    }
  }
  return frame;
}
