// A signing thread of sign-pool.ts: RSA-SHA256 (RSASSA-PKCS1-v1_5) signatures over the strings it
// is sent, in batches, with the keys it was sent once each. Self-contained on purpose: a worker
// loads this file directly, so it imports nothing of the server's.

import { sign, type KeyObject } from "node:crypto";
import { parentPort } from "node:worker_threads";

/** One batch: keys not sent before (by the pool's number for them), then the strings to sign. */
export interface SignBatch {
  batch: number;
  keys: Array<[number, KeyObject]>;
  jobs: Array<[key: number, data: string]>;
}

/** Base64 signatures in the order of the batch's jobs, or the reason one could not be made. */
export interface SignAnswer {
  batch: number;
  signatures: Array<string | { error: string }>;
}

const keys = new Map<number, KeyObject>();

parentPort?.on("message", ({ batch, keys: newKeys, jobs }: SignBatch) => {
  for (const [id, key] of newKeys) keys.set(id, key);
  const signatures = jobs.map(([id, data]) => {
    const key = keys.get(id);
    if (!key) return { error: `signing key ${id} was never sent to this thread` };
    try {
      return sign("sha256", Buffer.from(data, "utf8"), key).toString("base64");
    } catch (error) {
      return { error: (error as Error).message };
    }
  });
  parentPort!.postMessage({ batch, signatures } satisfies SignAnswer);
});
