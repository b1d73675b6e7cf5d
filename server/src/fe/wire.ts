// The /fe wire contract. cattle_grid's published types (@cattle-grid/account-api) are the base;
// what Corral adds is marked as an addition and stays backwards compatible. The console imports
// this file with `import type`, so a renamed field fails its type check, not production.
// The types are imported from the package's types.gen.ts by path: its index also exports the
// generated client, whose sources (CommonJS-typed .ts) fail our strict ESM type check.

import type { ActivityMinute } from "../events/activity.ts";
import type { DeliveryAttempt, HostHealth, HostHold } from "../delivery/host-health.ts";
import type { Inbound } from "../receive/refusal-types.ts";
import type { StreamName } from "../events/streams.ts";
import type { LookupFailure } from "../lookup/failure-kind.ts";
import type { Exchange } from "../activitypub/exchange.ts";
import type {
  ActorInformation,
  CreateActorRequest,
  EventType,
  HttpValidationError,
  InformationResponse,
  LookupRequest,
  MethodInformationModel,
  NameAndVersion,
  PerformRequest,
  SignInData,
  TokenResponse,
  ValidationError,
} from "../../../node_modules/@cattle-grid/account-api/src/types.gen.ts";

export type {
  ActorInformation,
  CreateActorRequest,
  EventType,
  HttpValidationError,
  InformationResponse,
  LookupRequest,
  MethodInformationModel,
  NameAndVersion,
  PerformRequest,
  SignInData,
  TokenResponse,
  ValidationError,
};

/** The three streams of `GET /fe/account/stream/{event_type}` (owned by events/). */
export { streamNames, type StreamName } from "../events/streams.ts";
// The events module's stream names are exactly cattle_grid's EventType (a type error otherwise).
type Assert<T extends true> = T;
export type StreamsAgree = Assert<
  [StreamName] extends [EventType] ? ([EventType] extends [StreamName] ? true : false) : false
>;

/** `POST /fe/signin` body and answer. */
export type SignInRequest = SignInData;
export type SignInResponse = TokenResponse;

/** `GET /fe/account/info`: every field present (cattle_grid leaves methodInformation optional). */
export type AccountInfo = InformationResponse & {
  methodInformation: MethodInformation[];
  /** Corral's addition, present when some of the account's actors live on a base URL not served here. */
  actorsNotServed?: UnservedActor[];
};

/** An actor on a base URL this server does not serve (docs/unserved-actors.md). */
export interface UnservedActor {
  id: string;
  name: string;
  baseUrl: string;
  /** Why its id and WebFinger answer 404 here, and the flag that serves it, in words. */
  reason: string;
}

/** A methodInformation entry; `schema` (JSON Schema of the body beside actor) and `example` are Corral's additions. */
export type MethodInformation = MethodInformationModel & {
  schema?: Record<string, unknown>;
  example?: Record<string, unknown>;
};

/** `POST /fe/account/create` answers 201 with the actor's ActivityPub document. */
export type ActorDocument = Record<string, unknown> & { id: string; type: string };

/**
 * `POST /fe/actor/lookup?timeout=S` answers 200 either way. A failed fetch has `raw: null`;
 * `error` (why it failed), `kind`, `url`, `status` and `seconds` are Corral's additions
 * (lookup/failure-kind.ts).
 */
export type LookupResult =
  { raw: Record<string, unknown>; parsed?: ParsedPayload; exchange?: Exchange } | LookupFailure;
export type { Exchange, ExchangeAnswer, ExchangeRequest } from "../activitypub/exchange.ts";
export type { LookupFailure, LookupFailureKind } from "../lookup/failure-kind.ts";

/** `POST /fe/actor/trigger/{method}` answers `202 null`, with Corral's header `Corral-Trigger-Id`. */
export type TriggerRequest = PerformRequest;
export type TriggerResponse = null;
export const triggerIdHeader = "Corral-Trigger-Id";

/** Corral's addition: `GET /fe/actor/triggers/{id}` (docs/api.md#get-feactortriggersid). */
export type { TriggerRecord } from "../triggers/trigger-record.ts";
/** Corral's addition: `POST /fe/actor/triggers/{id}/redeliver` takes this and answers `202 null`. */
export type RedeliverRequest = { inbox?: string };
/** Corral's addition: `GET /fe/account/hosts` answers a list of these. */
export type { HostHealth } from "../delivery/host-health.ts";
/** Corral's addition: `GET /fe/account/hosts/{host}` (docs/api.md#get-feaccounthostshost). */
export type { DeliveryAttempt, HostHold };
/**
 * Corral's addition: `GET /fe/account/hosts/{host}` (docs/api.md), the list entry and both
 * directions: what was delivered there (delivery/) and what its senders sent here (receive/).
 */
export interface HostDetail extends HostHealth {
  software: { name: string; version: string | null } | null;
  inbound: Inbound;
  outbound: HostHealth | null;
  hold: HostHold | null;
  /** The newest 50 attempts, newest first. */
  attempts: DeliveryAttempt[];
}
/** Corral's addition: `GET /fe/account/backlog` (docs/api.md#get-feaccountbacklog). */
export type { Backlog } from "../delivery/host-health.ts";
/**
 * Corral's addition: `POST /fe/account/hosts/{host}/check` answers a HostCheck
 * (docs/api.md#post-feaccounthostshostcheck); with `Accept: application/x-ndjson` it streams
 * HostCheckLines, the HostCheck last.
 */
export type { HostCheck, HostCheckLine, HostCheckStep } from "../delivery/host-health.ts";

/**
 * Corral's addition: `GET /fe/account/refusals` answers a RefusalPage
 * (docs/api.md#what-the-inbox-refused).
 */
export type {
  RefusalEntry,
  RefusalPage,
  RefusalReason,
  Inbound,
} from "../receive/refusal-types.ts";

/** Every error answer but 422: `{"detail": "why"}` (FastAPI's shape). */
export type ErrorDetail = { detail: string };
/** 422: FastAPI's validation error, every entry with loc, msg, type. */
export type ValidationErrorResponse = { detail: ValidationError[] };

/**
 * `parsed`: muck_out 0.3.16's normalised view, key for key as cattle_grid sends it
 * (server/src/activitypub/muck-out.ts). `{}` when nothing normalises (an activity without ids).
 */
export type { Parsed as ParsedPayload } from "../activitypub/muck-out.ts";
import type { Parsed as ParsedPayload } from "../activitypub/muck-out.ts";

/** Data of an incoming/outgoing stream frame: cattle_grid's EventInformation. */
export type EventInformation = {
  actor: string;
  event_type: "incoming" | "outgoing";
  data: { raw: Record<string, unknown>; parsed?: ParsedPayload };
  history_id: string | null;
  /** Corral's addition: the trigger that caused it, or null. */
  trigger_id?: string | null;
  /** Corral's addition (docs/server-guide.md#streams): the activity's actor in words. */
  actor_info?: ActorInfo;
};
export type { ActorInfo } from "../activitypub/actor-info-shape.ts";
import type { ActorInfo } from "../activitypub/actor-info-shape.ts";

/** Data of an error stream frame: cattle_grid's ErrorMessage plus Corral's optional fields. */
export type ErrorMessage = {
  message: string[];
  routing_key: string;
  /**
   * The method's body. A trigger's error events carry it once per stream connection, in the
   * first of them; the later ones leave it out and name the trigger by `trigger_id`.
   */
  original_message_body?: string;
  /** Corral's additions: what failed, where, and whether it is retried. */
  actor?: string;
  inbox?: string;
  status?: number;
  attempt?: number;
  nextAttemptAt?: string;
  final?: boolean;
  /** Corral's addition: the trigger that caused it, or null. */
  trigger_id?: string | null;
};

/** The JSON of one stream frame's `data:` line. */
export type StreamEvent = EventInformation | ErrorMessage;

/**
 * `GET /fe/account/history[?start_from=UUID]`: cattle_grid's EventHistoryResponse. Incoming and
 * outgoing events, newest first: the 10 newest, or (after `start_from`, a history_id) the oldest
 * 100 after it. cattle_grid leaves `history_id` null here; Corral fills it.
 */
export type EventHistoryResponse = { events: EventInformation[] };

/**
 * Corral's addition (docs/api.md#get-feaccounteventsincomingoutgoingerrorall): `GET
 * /fe/account/events/{stream}`.
 */
export type HistoryStream = StreamName | "all";
export const historyStreams = [
  "incoming",
  "outgoing",
  "error",
  "all",
] as const satisfies readonly HistoryStream[];

/** One retained event: its stream, its id there, when it was stored, and the event as sent. */
export type HistoryEntry = {
  stream: StreamName;
  id: number;
  receivedAt: string;
  /** The id the combined stream and /fe/account/history give the same event. */
  history_id: string;
  event: StreamEvent;
};

/**
 * Newest first. Query: `before`/`after` (per-stream ids; for `all` the cursor a page returned
 * as `next`), `since`/`until` (ISO), `q`, `type`, `actor`, `host`, `limit` (1–500, default 100),
 * `id` (an event id, or a history_id).
 */
export type HistoryResponse = { events: HistoryEntry[]; more: boolean; next: string | null };

/** GET /account/activity?minutes=N, a Corral addition: per-minute event counts, oldest first. */
export interface ActivityResponse {
  minutes: ActivityMinute[];
}
export type { ActivityMinute } from "../events/activity.ts";

/**
 * Corral's addition: `GET /fe/account/cattle-drive`, where Cattle Drive (cattle_grid's client
 * protocol, docs/cattle-drive.md) listens and which clients of the account are connected.
 * `amqpConnectionsKnown: false` (present when AMQP is served) says that AMQP clients, whose
 * connections RabbitMQ holds, are not listed.
 */
export interface CattleDriveInfo {
  websocket: { url: string } | null;
  amqp: { url: string; exchange: string } | null;
  connections: CattleDriveConnection[];
  amqpConnectionsKnown?: false;
}
export type { DriveConnection as CattleDriveConnection } from "../cattle-drive/connections.ts";
import type { DriveConnection as CattleDriveConnection } from "../cattle-drive/connections.ts";
