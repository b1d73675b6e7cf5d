// A remote server decides how much it sends; we decide how much we read. Bodies are read as a
// stream and given up on past a limit, so one answer cannot fill the process's memory.

export type LimitedText = { ok: true; text: string } | { ok: false; reason: string };

/**
 * A stream of chunks (undici's request body, a fetch body) as UTF-8 text, or the reason it was
 * not read; past `maxBytes` the loop is left, which stops the stream, so the rest is not read.
 */
export async function readLimited(
  chunks: AsyncIterable<Uint8Array>,
  maxBytes: number,
): Promise<LimitedText> {
  const read: Uint8Array[] = [];
  let size = 0;
  try {
    for await (const chunk of chunks) {
      size += chunk.byteLength;
      if (size > maxBytes)
        return { ok: false, reason: `the body is larger than ${describeBytes(maxBytes)}` };
      read.push(chunk);
    }
  } catch (error) {
    return { ok: false, reason: `the body could not be read: ${(error as Error).message}` };
  }
  return { ok: true, text: Buffer.concat(read).toString("utf8") };
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
