// A remote server decides how much it sends; we decide how much we read. Bodies are read as a
// stream and given up on past a limit, so one answer cannot fill the process's memory.

export type LimitedText = { ok: true; text: string } | { ok: false; reason: string };

interface Body {
  body: ReadableStream<Uint8Array> | null;
}

/** The body as UTF-8 text, or the reason it was not read (too large, or the stream failed). */
export async function readLimited(response: Body, maxBytes: number): Promise<LimitedText> {
  if (!response.body) return { ok: true, text: "" };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => {});
        return { ok: false, reason: `the body is larger than ${describeBytes(maxBytes)}` };
      }
      chunks.push(value);
    }
  } catch (error) {
    return { ok: false, reason: `the body could not be read: ${(error as Error).message}` };
  }
  return { ok: true, text: Buffer.concat(chunks).toString("utf8") };
}

/** At most `maxBytes` of the body, for an error message; the rest is not read. */
export async function readPrefix(response: Body, maxBytes = 4096): Promise<string> {
  return response.body ? readStart(response.body, maxBytes) : "";
}

/**
 * At most `maxBytes` of a stream of chunks (a fetch body, or a Node stream such as undici's
 * request body), as text; leaving the loop early cancels or destroys the stream, so the rest is
 * not read.
 */
export async function readStart(
  chunks: AsyncIterable<Uint8Array>,
  maxBytes = 4096,
): Promise<string> {
  const read: Uint8Array[] = [];
  let size = 0;
  try {
    for await (const chunk of chunks) {
      read.push(chunk);
      size += chunk.byteLength;
      if (size >= maxBytes) break;
    }
  } catch {
    // whatever arrived is enough for a message
  }
  return Buffer.concat(read).subarray(0, maxBytes).toString("utf8");
}

function describeBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}
