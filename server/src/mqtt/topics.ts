// MQTT topics are Cattle Drive's routing keys with `/` for `.` (almabtrieb: send/NAME/request/info
// over MQTT, send.NAME.request.info over AMQP); subscriptions are MQTT filters (`+`, `#`).

export const toKey = (topic: string) => topic.replaceAll("/", ".");
export const toTopic = (key: string) => key.replaceAll(".", "/");

/** Does `topic` match the subscription `filter`? (MQTT 5, 4.7: `+` one level, `#` the rest.) */
export function matchesFilter(filter: string, topic: string): boolean {
  const f = filter.split("/");
  const t = topic.split("/");
  for (let i = 0; i < f.length; i++) {
    if (f[i] === "#") return true;
    if (i >= t.length) return false;
    if (f[i] !== "+" && f[i] !== t[i]) return false;
  }
  return f.length === t.length;
}

/**
 * May `account` subscribe to `filter`? Only to filters every match of which is its own:
 * under receive/NAME/ or error/NAME.
 */
export function maySubscribe(account: string, filter: string): boolean {
  return filter.startsWith(`receive/${account}/`) || filter === `error/${account}`;
}

/** May `account` publish on `topic`? Only under send/NAME/. */
export function mayPublish(account: string, topic: string): boolean {
  return topic.startsWith(`send/${account}/`) && !/[+#]/.test(topic);
}
