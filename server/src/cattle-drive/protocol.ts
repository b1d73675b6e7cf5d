// Cattle Drive's routing keys, as cattle_grid 0.5.22 and almabtrieb 0.3.0 use them on the
// exchange amq.topic (docs/cattle-drive.md). Keys are written with dots here; MQTT topics are
// the same keys with slashes (toKey / toTopic at the MQTT edge).

/** One message for a client: its routing key, JSON text and correlation id. */
export interface DriveMessage {
  key: string;
  payload: string;
  correlationId: string;
}

export type SendKey =
  | { kind: "request"; method: string }
  | { kind: "trigger"; method: string }
  | { kind: "unknown"; rest: string };

/** What a client sent on `send.{account}.…`: null when the key is not the account's. */
export function parseSendKey(account: string, key: string): SendKey | null {
  const prefix = `send.${account}.`;
  if (!key.startsWith(prefix)) return null;
  const rest = key.slice(prefix.length);
  const request = /^request\.([A-Za-z0-9_]+)$/.exec(rest);
  if (request) return { kind: "request", method: request[1]! };
  // cattle_grid takes everything after `trigger.` as the method (dots included).
  if (rest.startsWith("trigger.") && rest.length > "trigger.".length)
    return { kind: "trigger", method: rest.slice("trigger.".length) };
  return { kind: "unknown", rest };
}

export const responseKey = (account: string, method: string) =>
  `receive.${account}.response.${method}`;
export const errorKey = (account: string) => `error.${account}`;
export const combinedKey = (account: string) => `combined.${account}`;

/**
 * `receive.{account}.{incoming|outgoing}.{ActivityType}`. almabtrieb routes by `\w+` in the last
 * part: a type with other characters (or none) is named by its word characters, else `Object`.
 */
export function eventKey(account: string, stream: "incoming" | "outgoing", type: unknown): string {
  const first = Array.isArray(type) ? type[0] : type;
  const word = typeof first === "string" ? first.replace(/\W/g, "") : "";
  return `receive.${account}.${stream}.${word || "Object"}`;
}

/** May `account` receive what is published on `key`? (Its own receive.… and error keys.) */
export function mayReceive(account: string, key: string): boolean {
  return key.startsWith(`receive.${account}.`) || key === errorKey(account);
}

/** cattle_grid's topic rule for a RabbitMQ login: send.{account}.*, receive.{account}.*, error.{account}. */
export function mayUseKey(account: string, key: string): boolean {
  return (
    key.startsWith(`send.${account}.`) ||
    key.startsWith(`receive.${account}.`) ||
    key === errorKey(account)
  );
}
