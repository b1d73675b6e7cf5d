// Log lines written together: the lines of one turn of the event loop go out in one write when
// the turn ends, instead of one write (a system call, and on a pipe a wake-up of its reader) per
// line. Under inbox load that write per request line was a fifth of the server's CPU. Nothing
// waits longer than the turn: a full buffer goes out at once, and so does whatever is left when
// the process exits (process.exit, a signal handled by exiting, an uncaught exception). Only a
// process killed outright (kill -9) loses the lines of its last turn.

/** Past this many characters the buffer is written at once. */
const FLUSH_AT_CHARS = 64 * 1024;

export interface LineBuffer {
  /** Queues `text` (whole lines) for the end of this turn. */
  write(text: string): void;
  /** Writes what is queued now. */
  flush(): void;
}

export function createLineBuffer(
  out: (text: string) => void,
  options: { schedule?: (flush: () => void) => void; onExit?: (flush: () => void) => void } = {},
): LineBuffer {
  const schedule = options.schedule ?? ((flush) => void setImmediate(flush));
  let queued: string[] = [];
  let chars = 0;
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (queued.length === 0) return;
    const text = queued.length === 1 ? queued[0]! : queued.join("");
    queued = [];
    chars = 0;
    out(text);
  };
  (options.onExit ?? ((flush) => process.on("exit", flush)))(flush);
  return {
    write(text) {
      queued.push(text);
      chars += text.length;
      if (chars >= FLUSH_AT_CHARS) return flush();
      if (!scheduled) {
        scheduled = true;
        schedule(flush);
      }
    },
    flush,
  };
}
