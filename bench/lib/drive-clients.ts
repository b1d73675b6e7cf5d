// The client side of cattle-drive.bench.ts, in a process of its own so that the server's event
// loop is not the clients': MQTT 5 over WebSocket clients (the `mqtt` package) of one account.
//   node bench/lib/drive-clients.ts latency URL USER PASSWORD COUNT
//     one client, COUNT request/info round trips one after another (after 100 unmeasured);
//     prints {"p50": ms, "p99": ms, "max": ms}
//   node bench/lib/drive-clients.ts fanout URL USER PASSWORD CLIENTS EXPECTED
//     CLIENTS clients subscribed to receive/USER/#; prints "ready", then, once each has EXPECTED
//     incoming events or 30 s passed without one, {"clients": [{received, duplicates,
//     withoutCorrelation}], "lastAt": epoch ms}

import mqtt, { type MqttClient } from "mqtt";

const [mode, url, user, password, a, b] = process.argv.slice(2);

function connect(): Promise<MqttClient> {
  const client = mqtt.connect(url!, {
    protocolVersion: 5,
    username: user,
    password,
    reconnectPeriod: 0,
  });
  return new Promise((resolve, reject) => {
    client.once("connect", () => resolve(client));
    client.once("error", reject);
  });
}

if (mode === "latency") {
  const count = Number(a);
  const client = await connect();
  await client.subscribeAsync([`receive/${user}/#`, `error/${user}`]);
  const waiting = new Map<string, () => void>();
  client.on("message", (topic, payload, packet) => {
    if (topic.startsWith("error/")) {
      console.error(`drive-clients: refused: ${payload.toString()}`);
      process.exit(1);
    }
    const id = packet.properties?.correlationData?.toString();
    if (id) waiting.get(id)?.();
  });
  const times: number[] = [];
  for (let i = 0; i < count + 100; i++) {
    const id = `r${i}`;
    const started = performance.now();
    await new Promise<void>((done) => {
      waiting.set(id, done);
      client.publish(`send/${user}/request/info`, "{}", {
        properties: { correlationData: Buffer.from(id) },
      });
    });
    waiting.delete(id);
    if (i >= 100) times.push(performance.now() - started);
  }
  times.sort((x, y) => x - y);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
  console.log(JSON.stringify({ p50: at(0.5), p99: at(0.99), max: times.at(-1) }));
  await client.endAsync();
} else if (mode === "fanout") {
  const clients = Number(a);
  const expected = Number(b);
  let lastAt = 0;
  const counts = await Promise.all(
    Array.from({ length: clients }, async () => {
      const client = await connect();
      const seen = new Set<number>();
      const stats = { received: 0, duplicates: 0, withoutCorrelation: 0, client };
      client.on("message", (_topic, payload, packet) => {
        const n = (JSON.parse(payload.toString()) as { data: { raw: { n: number } } }).data.raw.n;
        if (seen.has(n)) stats.duplicates++;
        seen.add(n);
        stats.received = seen.size;
        if (!packet.properties?.correlationData) stats.withoutCorrelation++;
        lastAt = Date.now();
      });
      await client.subscribeAsync(`receive/${user}/incoming/#`);
      return stats;
    }),
  );
  console.log("ready");
  let quietSince = Date.now();
  let lastTotal = 0;
  for (;;) {
    await new Promise((done) => setTimeout(done, 100));
    const total = counts.reduce((sum, c) => sum + c.received, 0);
    if (total !== lastTotal) quietSince = Date.now();
    lastTotal = total;
    if (counts.every((c) => c.received >= expected) || Date.now() - quietSince > 30_000) break;
  }
  console.log(
    JSON.stringify({
      clients: counts.map(({ received, duplicates, withoutCorrelation }) => ({
        received,
        duplicates,
        withoutCorrelation,
      })),
      lastAt,
    }),
  );
  await Promise.all(counts.map((c) => c.client.endAsync()));
} else {
  console.error("usage: drive-clients.ts latency|fanout URL USER PASSWORD …");
  process.exit(2);
}
