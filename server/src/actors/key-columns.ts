import type { webcrypto } from "node:crypto";
import { exportJwk, generateCryptoKeyPair } from "@fedify/fedify";

export interface ActorKeyColumns {
  rsa_private_jwk: string;
  rsa_public_jwk: string;
  ed25519_private_jwk: string;
  ed25519_public_jwk: string;
}

/**
 * A new RSA key pair for signing, 2048 bits: Fedify's generateCryptoKeyPair makes 4096-bit RSA
 * keys; 2048 bits is what the fediverse uses and signs several times faster.
 */
export async function generateRsaKeyPair(): Promise<webcrypto.CryptoKeyPair> {
  return (await crypto.subtle.generateKey(
    {
      name: "RSASSA-PKCS1-v1_5",
      modulusLength: 2048,
      publicExponent: new Uint8Array([1, 0, 1]),
      hash: "SHA-256",
    },
    true,
    ["sign", "verify"],
  )) as webcrypto.CryptoKeyPair;
}

/** Makes the two key pairs of a new actor, as the JWK columns of the actors table. */
export async function generateActorKeyColumns(): Promise<ActorKeyColumns> {
  const [rsa, ed25519] = await Promise.all([
    generateRsaKeyPair(),
    generateCryptoKeyPair("Ed25519"),
  ]);
  const json = async (key: webcrypto.CryptoKey) => JSON.stringify(await exportJwk(key));
  return {
    rsa_private_jwk: await json(rsa.privateKey),
    rsa_public_jwk: await json(rsa.publicKey),
    ed25519_private_jwk: await json(ed25519.privateKey),
    ed25519_public_jwk: await json(ed25519.publicKey),
  };
}
