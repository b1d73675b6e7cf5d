// What the inbox's refusal record looks like on the wire (docs/api.md#what-the-inbox-refused).
// Without imports: fe/wire.ts re-exports it, and the console type-checks it.

/** Why a request was refused, as the record and GET /fe/account/refusals name it. */
export type RefusalReason =
  | "unsigned"
  | "bad_signature"
  | "digest_mismatch"
  | "key_fetch_failed"
  | "actor_mismatch"
  | "date_skew"
  | "unknown_actor"
  | "gone"
  | "too_large"
  | "too_deep"
  | "malformed"
  | "throttled";

export const refusalReasons: readonly RefusalReason[] = [
  "unsigned",
  "bad_signature",
  "digest_mismatch",
  "key_fetch_failed",
  "actor_mismatch",
  "date_skew",
  "unknown_actor",
  "gone",
  "too_large",
  "too_deep",
  "malformed",
  "throttled",
];

/** One entry of GET /fe/account/refusals (docs/api.md#what-the-inbox-refused). */
export interface RefusalEntry {
  id: number;
  at: string;
  /** The client's address (behind --trust-proxy, the real one). */
  client: string;
  /** The inbox URL it was sent to. */
  inbox: string;
  keyId: string | null;
  keyHost: string | null;
  actorHost: string | null;
  activityId: string | null;
  activityType: string | null;
  status: number;
  reason: RefusalReason;
  /** The reason in words. */
  detail: string;
  /** The first 4 KiB of the body, or null (none read: too large, or refused before reading). */
  body: string | null;
  /** False for a request addressed to no account's actor (shown to admins). */
  attributed: boolean;
}

export interface RefusalPage {
  refusals: RefusalEntry[];
  more: boolean;
}

/** A host's inbound side over 7 days, for GET /fe/account/hosts/{host}. */
export interface Inbound {
  lastAcceptedAt: string | null;
  lastRefusedAt: string | null;
  accepted7d: number;
  refused7d: number;
  refusedByReason: Partial<Record<RefusalReason, number>>;
}
