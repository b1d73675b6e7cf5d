// Node's own RSA-2048 signing rate on one core (this thread): the ceiling a delivery path that
// signs every request on one thread can reach, measured in the same run as the figures it bounds.

import { generateKeyPairSync, sign } from "node:crypto";

/** RSASSA-PKCS1-v1_5 SHA-256 signatures per second over a typical draft-cavage signing string. */
export function measureSignRate(durationMs = 1000): number {
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const signingString = Buffer.from(
    [
      "(request-target): post /users/s123/inbox",
      "host: sink.example:43210",
      `date: ${new Date().toUTCString()}`,
      "digest: SHA-256=47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=",
    ].join("\n"),
  );
  for (let i = 0; i < 50; i++) sign("sha256", signingString, privateKey); // warm-up
  let count = 0;
  const started = performance.now();
  let elapsed = 0;
  while (elapsed < durationMs) {
    for (let i = 0; i < 20; i++) sign("sha256", signingString, privateKey);
    count += 20;
    elapsed = performance.now() - started;
  }
  return count / (elapsed / 1000);
}
