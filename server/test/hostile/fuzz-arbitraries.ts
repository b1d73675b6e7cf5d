// What the fuzz suite sends. Placeholders "ACTOR", "REMOTE" and "ID" (JSON strings) are filled
// in per request by fill(), so shrinking keeps them meaningful.
//
// Nothing here may leave loopback: every URL these produce names 127.0.0.1 on a port nothing
// listens on (1 or 9, so no other process on the machine is reached) or is not a URL at all,
// so no DNS question is asked.

import fc from "fast-check";

const AS = "https://www.w3.org/ns/activitystreams";

/** Strings that are never a resolvable name: no dots, colons or at signs. */
export const word = fc.string({ maxLength: 12 }).filter((s) => !/[.:@]/.test(s));
export const loopbackUrl = fc
  .tuple(fc.constantFrom("http", "https", "ftp"), fc.constantFrom(1, 9), word)
  .map(([scheme, port, path]) => `${scheme}://127.0.0.1:${port}/${encodeURIComponent(path)}`);
const safeString = fc.oneof(word, loopbackUrl, fc.constantFrom("", " ", "\u0000", "acct:"));

/** JSON values whose strings are all safe, a few levels deep. */
export const json = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    safeString,
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(fc.oneof(word, fc.constantFrom("actor", "to", "type", "id")), tie("value"), {
      maxKeys: 5,
    }),
  ),
})).value;

export const body = fc.oneof(
  { arbitrary: json.map((v) => JSON.stringify(v)), weight: 2 },
  fc.string({ maxLength: 40 }),
  fc.constantFrom("", "{", "[]", "null", '{"a":1,"a":2}', "\uFEFF{}", "1e999"),
  {
    // Trigger bodies, mostly naming the account's own actor.
    weight: 3,
    arbitrary: fc
      .record(
        { actor: fc.oneof(fc.constant("ACTOR"), safeString), data: json, autoFollow: json },
        { requiredKeys: ["actor"] },
      )
      .map((v) => JSON.stringify(v)),
  },
  fc.record({ actorId: fc.constant("ACTOR"), uri: safeString }).map((v) => JSON.stringify(v)),
);

const segment = fc.oneof(word, fc.constantFrom("incoming", "outgoing", "error", "1", "-1", "%00"));
const encoded = segment.map(encodeURIComponent);
// Not delete_actor: once the actor is gone every later trigger stops at "not your actor".
const methodName = fc.oneof(
  fc.constantFrom("send_message", "update_actor", "publish_activity"),
  word,
);

/** Every /fe route of docs/api.md, with hostile path segments. */
export const route = fc.oneof(
  fc.constantFrom("/signin", "/signout", "/account/info", "/account/create", "/actor/lookup"),
  fc.constantFrom("/account/hosts", "/actor/lookup?timeout=0", "/actor/lookup?timeout=x"),
  segment.map((s) => `/account/stream/${s}`),
  methodName.map((m) => `/actor/trigger/${encodeURIComponent(m)}`),
  encoded.map((s) => `/actor/triggers/${s}`),
  encoded.map((s) => `/actor/triggers/${s}/redeliver`),
  fc
    .tuple(encoded, fc.constantFrom("stop", "resume", "retry"))
    .map(([host, action]) => `/account/hosts/${host}/${action}`),
);

/** The method a route is usually called with; sometimes another. */
export const method = fc.oneof(
  { arbitrary: fc.constant("natural"), weight: 4 },
  fc.constantFrom("GET", "POST", "PUT", "DELETE"),
);
export function naturalMethod(path: string) {
  return /^\/(account\/(info|stream|hosts$)|actor\/triggers\/[^/]*$)/.test(path) ? "GET" : "POST";
}

export const authorization = fc.oneof(
  { arbitrary: fc.constant("Bearer TOKEN"), weight: 6 },
  fc.constant(undefined),
  fc.constantFrom("Bearer", "Bearer ", "Basic x", "bearer TOKEN", "Bearer TOKEN x"),
  word.map((w) => `Bearer ${w}`),
);
export const contentType = fc.constantFrom(
  "application/json",
  "text/plain",
  "application/activity+json",
  undefined,
);

/** Activities, some well-formed from the test's remote actor to ours, most not. */
export const activity = fc
  .record(
    {
      "@context": fc.oneof(fc.constant(AS), json),
      id: fc.oneof(fc.constant("ID"), safeString),
      type: fc.oneof(
        fc.constantFrom("Create", "Follow", "Undo", "Accept", "Reject", "Delete", "Update"),
        word,
      ),
      actor: fc.oneof(fc.constant("REMOTE"), safeString),
      object: fc.oneof(fc.constant("ACTOR"), json),
      to: fc.oneof(fc.constant(["ACTOR"]), json),
    },
    { requiredKeys: [] },
  )
  .map((a) => JSON.stringify(a));

export const signatureHeader = fc.oneof(
  fc.constant(undefined),
  fc.string({ maxLength: 60 }),
  fc
    .tuple(loopbackUrl, fc.constantFrom("rsa-sha256", "hs2019", "ed25519", ""), word)
    .map(
      ([keyId, algorithm, signature]) =>
        `keyId="${keyId}",algorithm="${algorithm}",headers="(request-target) date",signature="${signature}"`,
    ),
);

/** Replaces the placeholders with real ids (a fresh activity id each time). */
export function fill(text: string, ids: { actor: string; remote: string; fresh: () => string }) {
  return text
    .replaceAll('"ID"', JSON.stringify(ids.fresh()))
    .replaceAll('"REMOTE"', JSON.stringify(ids.remote))
    .replaceAll('"ACTOR"', JSON.stringify(ids.actor));
}
