// A signing thread of sign-pool.ts: RSA-SHA256 (RSASSA-PKCS1-v1_5) signatures over the strings it
// is sent, in batches, with the keys it was sent once each; and checks of such signatures (a job
// that brings one: the inbox's, verify-draft.ts). The pool starts it from this
// function's source (`new Worker(source, { eval: true })`), so the function must stay
// self-contained: it closes over nothing and takes Node's modules from process.getBuiltinModule.
// (Started from this file instead, each thread loaded the ES module loader and the TypeScript
// stripper first: about 45 ms of CPU per thread before its first signature, in every cold start.)

import type { KeyObject } from "node:crypto";

/**
 * One batch: keys not sent before (by the pool's number for them), then the strings to sign, or
 * with a base64 signature, the strings whose signature to check.
 */
export interface SignBatch {
  batch: number;
  keys: Array<[number, KeyObject]>;
  jobs: Array<[key: number, data: string] | [key: number, data: string, signature: string]>;
}

/**
 * In the order of the batch's jobs: base64 signatures, whether a signature checked out, or the
 * reason a job could not be done.
 */
export interface SignAnswer {
  batch: number;
  signatures: Array<string | boolean | { error: string }>;
}

/** The thread's whole program. */
export function signingThread(): void {
  const { sign, verify } = process.getBuiltinModule("node:crypto");
  const { parentPort } = process.getBuiltinModule("node:worker_threads");
  const keys = new Map<number, KeyObject>();
  parentPort?.on("message", ({ batch, keys: newKeys, jobs }: SignBatch) => {
    for (const [id, key] of newKeys) keys.set(id, key);
    const signatures = jobs.map(([id, data, signature]) => {
      const key = keys.get(id);
      if (!key) return { error: `signing key ${id} was never sent to this thread` };
      try {
        if (signature !== undefined)
          return verify("sha256", Buffer.from(data, "utf8"), key, Buffer.from(signature, "base64"));
        return sign("sha256", Buffer.from(data, "utf8"), key).toString("base64");
      } catch (error) {
        return { error: (error as Error).message };
      }
    });
    parentPort.postMessage({ batch, signatures } satisfies SignAnswer);
  });
}

/** The source a signing thread runs. */
export const signingThreadSource = `(${signingThread.toString()})();`;
