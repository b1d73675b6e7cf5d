import { availableParallelism } from "node:os";
import { KeyObject, type webcrypto } from "node:crypto";
import { Worker } from "node:worker_threads";
import { signingThreadSource, type SignAnswer, type SignBatch } from "./sign-worker.ts";

// RSA signing off the main thread (docs/adr/0010): one thread per core, each holding every key it
// has been sent (sent once per thread, as a KeyObject clone). Requests made in the same turn of
// the event loop go out together, split between the threads by how much each has waiting, so a
// burst of deliveries costs a few messages, not one per signature. The HTTP loop never waits on a
// signature: it sends the next request while the threads sign.

interface Thread {
  worker: Worker;
  /** Key numbers this thread already holds. */
  keys: Set<number>;
  waiting: number;
  batches: Map<
    number,
    Array<{ resolve(answer: string | boolean): void; reject(error: Error): void }>
  >;
}

interface Job {
  key: KeyObject;
  data: string;
  /** Given: the job checks this base64 signature (and answers a boolean) rather than signs. */
  signature?: string;
  resolve(answer: string | boolean): void;
  reject(error: Error): void;
}

export class SignPool {
  readonly size: number;
  #threads: Thread[] = [];
  #pending: Job[] = [];
  #flushing = false;
  #keyNumbers = new WeakMap<KeyObject, number>();
  #nextKey = 1;
  #nextBatch = 1;
  #closed = false;

  constructor(size = availableParallelism()) {
    this.size = Math.max(1, size);
  }

  /** The RSASSA-PKCS1-v1_5 SHA-256 signature of `data` (UTF-8), base64. */
  sign(key: KeyObject, data: string): Promise<string> {
    return this.#queue(key, data, undefined, "string");
  }

  /**
   * Whether `signature` (base64) is `key`'s RSASSA-PKCS1-v1_5 SHA-256 signature of `data`
   * (UTF-8): the inbox's checks, gathered like signatures, a message per thread per turn rather
   * than a trip to libuv's pool each.
   */
  verify(key: KeyObject, data: string, signature: string): Promise<boolean> {
    return this.#queue(key, data, signature, "boolean");
  }

  #queue<T extends string | boolean>(
    key: KeyObject,
    data: string,
    signature: string | undefined,
    kind: "string" | "boolean",
  ): Promise<T> {
    if (this.#closed) return Promise.reject(new Error("the signing threads have stopped"));
    return new Promise((resolve, reject) => {
      this.#pending.push({
        key,
        data,
        signature,
        resolve: (answer) =>
          typeof answer === kind
            ? resolve(answer as T)
            : reject(new Error(`the signing thread answered a ${typeof answer}`)),
        reject,
      });
      if (!this.#flushing) {
        this.#flushing = true;
        setImmediate(() => this.#flush());
      }
    });
  }

  /** Stops the threads; what they were signing is refused. */
  async close(): Promise<void> {
    this.#closed = true;
    const threads = this.#threads;
    this.#threads = [];
    await Promise.all(threads.map((t) => t.worker.terminate()));
  }

  #flush() {
    this.#flushing = false;
    const jobs = this.#pending;
    this.#pending = [];
    if (jobs.length === 0 || this.#closed) return;
    this.#start();
    // Fill the least busy threads first, in even shares.
    const threads = [...this.#threads].sort((a, b) => a.waiting - b.waiting);
    const share = Math.ceil(jobs.length / threads.length);
    for (let i = 0; i < threads.length && i * share < jobs.length; i++)
      this.#send(threads[i]!, jobs.slice(i * share, (i + 1) * share));
  }

  #send(thread: Thread, jobs: Job[]) {
    const message: SignBatch = { batch: this.#nextBatch++, keys: [], jobs: [] };
    for (const job of jobs) {
      let number = this.#keyNumbers.get(job.key);
      if (number === undefined) this.#keyNumbers.set(job.key, (number = this.#nextKey++));
      if (!thread.keys.has(number)) {
        thread.keys.add(number);
        message.keys.push([number, job.key]);
      }
      message.jobs.push(
        job.signature === undefined ? [number, job.data] : [number, job.data, job.signature],
      );
    }
    if (thread.waiting === 0) thread.worker.ref();
    thread.waiting += jobs.length;
    thread.batches.set(message.batch, jobs);
    thread.worker.postMessage(message);
  }

  #start() {
    if (this.#threads.length > 0) return;
    for (let i = 0; i < this.size; i++) {
      // Named, so that a thread listing (/proc/<pid>/task/*/comm, top -H) tells them apart.
      const worker = new Worker(signingThreadSource, { eval: true, name: "corral-sign" });
      const thread: Thread = { worker, keys: new Set(), waiting: 0, batches: new Map() };
      worker.on("message", (answer: SignAnswer) => this.#answered(thread, answer));
      worker.on("error", (error) => this.#lost(thread, error));
      worker.on("exit", (code) => {
        if (!this.#closed) this.#lost(thread, new Error(`signing thread exited (${code})`));
      });
      // An idle pool never keeps the process alive. After the listeners: adding a "message"
      // listener refs the thread's port again (a one-off `corral lookup` would never exit).
      worker.unref();
      this.#threads.push(thread);
    }
  }

  #answered(thread: Thread, { batch, signatures }: SignAnswer) {
    const jobs = thread.batches.get(batch);
    if (!jobs) return;
    thread.batches.delete(batch);
    thread.waiting -= jobs.length;
    if (thread.waiting === 0) thread.worker.unref();
    jobs.forEach((job, i) => {
      const signature = signatures[i];
      if (typeof signature === "string" || typeof signature === "boolean") job.resolve(signature);
      else job.reject(new Error(`signing failed: ${signature?.error ?? "no answer"}`));
    });
  }

  /**
   * A thread that died fails what it held. The others keep working; once all are gone, the next
   * flush starts a fresh set.
   */
  #lost(thread: Thread, error: Error) {
    const index = this.#threads.indexOf(thread);
    if (index === -1) return;
    this.#threads.splice(index, 1);
    for (const jobs of thread.batches.values())
      for (const job of jobs) job.reject(new Error(`signing failed: ${error.message}`));
    thread.batches.clear();
    void thread.worker.terminate();
  }
}

let shared: SignPool | undefined;

/** The process's signing pool, started on first use. */
export function signPool(): SignPool {
  return (shared ??= new SignPool());
}

const keyObjects = new WeakMap<webcrypto.CryptoKey, KeyObject>();

/** A WebCrypto private key as the KeyObject the signing threads take (made once per key). */
export function keyObjectOf(key: webcrypto.CryptoKey): KeyObject {
  let object = keyObjects.get(key);
  if (!object) keyObjects.set(key, (object = KeyObject.from(key)));
  return object;
}
