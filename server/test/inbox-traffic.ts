// Signed inbox traffic for multi-process tests and the scale bench: a sending actor and
// recipient actors (one account each) on the cluster's origin, activities signed beforehand so
// that only the servers' work is measured, and what arrived on the recipients' streams.

import { randomBytes } from "node:crypto";
import { signRequest } from "@fedify/fedify";
import { createAccount } from "../src/accounts/index.ts";
import { createActor } from "../src/actors/index.ts";
import { loadSigner } from "../src/activitypub/local-keys.ts";
import type { Db } from "../src/db/db.ts";
import { readEventsAfter } from "../src/db/events.store.ts";
import type { SignedPost } from "./cluster.ts";

export interface Recipient {
  accountId: number;
  actorId: string;
}

export interface InboxCast {
  sender: string;
  recipients: Recipient[];
}

/** An account `sender` with one actor, and `count` accounts `r0…` with one actor each. */
export async function createInboxCast(db: Db, baseUrl: string, count: number): Promise<InboxCast> {
  const actor = async (name: string) => {
    const account = await createAccount(db, { name, password: `${name}-password`, admin: true });
    if (!account.ok) throw new Error(`account ${name}: ${account.error}`);
    const created = await createActor(db, { accountId: account.account.id, baseUrl, handle: name });
    if (!created.ok) throw new Error(`actor ${name}: ${created.error}`);
    return { accountId: account.account.id, actorId: created.actor.id };
  };
  const sender = (await actor("sender")).actorId;
  const recipients: Recipient[] = [];
  for (let n = 0; n < count; n++) recipients.push(await actor(`r${n}`));
  return { sender, recipients };
}

/** `count` Creates of a Note from the sender, to each recipient in turn, signed for `origin`/inbox. */
export async function signInboxPosts(
  db: Db,
  cast: InboxCast,
  origin: string,
  count: number,
): Promise<SignedPost[]> {
  const signer = await loadSigner(db, cast.sender);
  if (!signer) throw new Error(`no keys for ${cast.sender}`);
  const run = randomBytes(4).toString("hex");
  const sign = async (n: number): Promise<SignedPost> => {
    const to = cast.recipients[n % cast.recipients.length]!.actorId;
    const id = `${cast.sender}/load/${run}/${n}`;
    const body = JSON.stringify({
      "@context": "https://www.w3.org/ns/activitystreams",
      id,
      type: "Create",
      actor: cast.sender,
      to: [to],
      object: { id: `${id}/note`, type: "Note", attributedTo: cast.sender, content: `load ${n}` },
    });
    const signed = await signRequest(
      new Request(`${origin}/inbox`, {
        method: "POST",
        headers: { "Content-Type": "application/activity+json" },
        body,
      }),
      signer.privateKey,
      signer.keyId,
    );
    return {
      id,
      path: "/inbox",
      headers: Object.fromEntries(signed.headers),
      body: Buffer.from(body),
    };
  };
  const posts: SignedPost[] = [];
  for (let n = 0; n < count; n += 64)
    posts.push(
      ...(await Promise.all(
        Array.from({ length: Math.min(64, count - n) }, (_, i) => sign(n + i)),
      )),
    );
  return posts;
}

/** How often each activity id is on the recipients' incoming streams. */
export async function countIncoming(db: Db, cast: InboxCast): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const { accountId } of new Map(cast.recipients.map((r) => [r.accountId, r])).values()) {
    let after = 0;
    for (;;) {
      const rows = await readEventsAfter(db, accountId, "incoming", after, 5000);
      if (rows.length === 0) break;
      for (const row of rows) {
        const id = (JSON.parse(row.data) as { data: { raw: { id: string } } }).data.raw.id;
        counts.set(id, (counts.get(id) ?? 0) + 1);
      }
      after = rows[rows.length - 1]!.seq;
    }
  }
  return counts;
}
