// Draft-cavage HTTP signatures for the inbox load, made with node:crypto directly so the load
// generator spends as little as possible: rsa-sha256 over (request-target), host, date, digest,
// the shape Mastodon sends and both Corral and Fedify verify.

import { createHash, sign, type KeyObject } from "node:crypto";

export interface SignedPost {
  url: string;
  headers: Record<string, string>;
  body: Buffer;
}

export function signPost(
  url: string,
  body: string,
  key: { keyId: string; privateKey: KeyObject },
): SignedPost {
  const target = new URL(url);
  const bytes = Buffer.from(body);
  const date = new Date().toUTCString();
  const digest = `SHA-256=${createHash("sha256").update(bytes).digest("base64")}`;
  const signingString = [
    `(request-target): post ${target.pathname}${target.search}`,
    `host: ${target.host}`,
    `date: ${date}`,
    `digest: ${digest}`,
  ].join("\n");
  const signature = sign("sha256", Buffer.from(signingString), key.privateKey).toString("base64");
  return {
    url,
    body: bytes,
    headers: {
      Host: target.host,
      Date: date,
      Digest: digest,
      "Content-Type": "application/activity+json",
      "Content-Length": String(bytes.length),
      Signature: `keyId="${key.keyId}",algorithm="rsa-sha256",headers="(request-target) host date digest",signature="${signature}"`,
    },
  };
}
