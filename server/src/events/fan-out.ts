// The live readers of this process, grouped per (account, stream). A notification causes one
// read per stream, whose rows go to every reader of that stream that is caught up; a reader
// that is behind (replaying from Last-Event-ID, or just joined) reads on its own until it has
// caught up, then joins the shared reads. Seqs of a stream are contiguous (db/events.store.ts),
// so a reader that would see a jump reads the missing part itself instead.

import { getLogger } from "@logtape/logtape";
import type { BusMessage } from "../db/bus.ts";
import type { StoredEvent } from "../db/events.store.ts";

const log = getLogger(["corral", "events"]);

const PAGE = 500;

export interface FanOutSource {
  readAfter(
    accountId: number,
    stream: string,
    after: number,
    limit: number,
  ): Promise<StoredEvent[]>;
  lastSeq(accountId: number, stream: string): Promise<number>;
  subscribe(listener: (message: BusMessage) => void): () => void;
}

export interface WatchHandlers {
  /** Rows in seq order, each once, contiguous from the start. */
  onRows(rows: StoredEvent[]): void;
  /** A read failed; the watch is closed. */
  onError(error: unknown): void;
}

export interface Watch {
  /** The seq the watch starts after: the Last-Event-ID given, or the newest one now. */
  start: number;
  close(): void;
}

interface Reader {
  lastSent: number;
  live: boolean;
  closed: boolean;
  poke(): void;
  take(rows: StoredEvent[]): void;
}

export function createFanOut(source: FanOutSource) {
  const channels = new Map<string, Channel>();
  let unsubscribe: (() => void) | undefined;

  /** Serialises reads: a poke during a read makes the reader read once more afterwards. */
  const pumped = (read: () => Promise<void>, onError: (error: unknown) => void) => {
    let running = false;
    let again = false;
    const pump = (): void => {
      if (running) {
        again = true;
        return;
      }
      running = true;
      again = false;
      read()
        .catch(onError)
        .finally(() => {
          running = false;
          if (again) pump();
        });
    };
    return pump;
  };

  class Channel {
    readers = new Set<Reader>();
    pump: () => void;
    readonly accountId: number;
    readonly stream: string;
    constructor(accountId: number, stream: string) {
      this.accountId = accountId;
      this.stream = stream;
      this.pump = pumped(
        () => this.#read(),
        (error) => {
          // Each reader tries alone; one whose read fails too is closed with the error.
          for (const reader of this.readers) {
            reader.live = false;
            reader.poke();
          }
          log.error("event stream {stream} of account {accountId}: read failed: {error}", {
            stream,
            accountId,
            error: (error as Error)?.message ?? String(error),
          });
        },
      );
    }
    /**
     * Rows this process has just stored, contiguous and in order, as a read would return them:
     * taken by each reader that is live and has had everything before them, with no read. The
     * bus's notification comes after it, and reads only for the readers still behind.
     */
    stored(rows: StoredEvent[]) {
      const first = rows[0]?.seq;
      if (first === undefined) return;
      for (const reader of this.readers)
        if (reader.live && reader.lastSent === first - 1) reader.take(rows);
    }
    notify(seq: number) {
      let behind = false;
      for (const reader of this.readers) {
        if (!reader.live) reader.poke();
        else if (reader.lastSent < seq) behind = true;
      }
      if (behind) this.pump();
    }
    async #read() {
      let rows: StoredEvent[];
      do {
        const live = [...this.readers].filter((r) => r.live);
        if (live.length === 0) return;
        const from = Math.min(...live.map((r) => r.lastSent));
        rows = await source.readAfter(this.accountId, this.stream, from, PAGE);
        for (const reader of this.readers) {
          if (reader.live) reader.take(rows);
          else reader.poke();
        }
      } while (rows.length === PAGE);
    }
  }

  const keyOf = (accountId: number, stream: string) => `${accountId}\u0000${stream}`;

  return {
    /** Starts a watch: every event after `after` (null: from now on), then every new one. */
    async watch(
      accountId: number,
      stream: string,
      after: number | null,
      handlers: WatchHandlers,
    ): Promise<Watch> {
      unsubscribe ??= source.subscribe((message) =>
        channels.get(keyOf(message.accountId, message.stream))?.notify(message.seq),
      );
      const key = keyOf(accountId, stream);
      let channel = channels.get(key);
      if (!channel) channels.set(key, (channel = new Channel(accountId, stream)));
      const reader: Reader = {
        lastSent: 0,
        live: false,
        closed: false,
        poke: () => {},
        take(rows) {
          const fresh = rows.filter((row) => row.seq > reader.lastSent);
          if (fresh.length === 0 || reader.closed) return;
          if (fresh[0]!.seq !== reader.lastSent + 1) {
            reader.live = false; // rows the shared read did not cover: read them alone
            reader.poke();
            return;
          }
          reader.lastSent = fresh[fresh.length - 1]!.seq;
          handlers.onRows(fresh);
        },
      };
      const close = () => {
        if (reader.closed) return;
        reader.closed = true;
        channel.readers.delete(reader);
        if (channel.readers.size === 0 && channels.get(key) === channel) channels.delete(key);
      };
      const poke = pumped(
        async () => {
          let rows: StoredEvent[];
          do {
            rows = await source.readAfter(accountId, stream, reader.lastSent, PAGE);
            if (reader.closed) return;
            // A shared read may have handed some of these out meanwhile.
            const fresh = rows.filter((row) => row.seq > reader.lastSent);
            if (fresh.length > 0) {
              reader.lastSent = fresh[fresh.length - 1]!.seq;
              handlers.onRows(fresh);
            }
          } while (rows.length === PAGE);
          // Synchronous with the end of the last read: any shared read handed out before now
          // poked us (and we read again); any after now reaches us as a live reader.
          reader.live = true;
        },
        (error) => {
          close();
          handlers.onError(error);
        },
      );
      // Until it knows where it starts, the reader ignores pokes: its first read comes after
      // that and covers everything stored since.
      channel.readers.add(reader);
      let newest: number;
      try {
        newest = await source.lastSeq(accountId, stream);
      } catch (error) {
        close();
        throw error;
      }
      // An id from the future means the store was replaced: everything it holds is new.
      reader.lastSent = after === null ? newest : after > newest ? 0 : after;
      reader.poke = poke;
      poke();
      return { start: reader.lastSent, close };
    },
    /**
     * Events this process has just stored (committed), handed to the live readers of their stream
     * that are caught up, instead of each notification's read of them (Channel.stored).
     */
    stored(accountId: number, stream: string, rows: StoredEvent[]) {
      channels.get(keyOf(accountId, stream))?.stored(rows);
    },
    /** Readers watching in this process. */
    watchers(): number {
      let n = 0;
      for (const channel of channels.values()) n += channel.readers.size;
      return n;
    },
  };
}
