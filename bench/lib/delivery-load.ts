// The delivery load: one sending actor, K activities per round each addressed `to` all N sink
// actors (N×K deliveries), timed from the first send to the last arrival at the sink, with the
// sending server's CPU over the same span. A warm-up activity first lets the sender resolve
// every sink actor's inbox, so rounds measure delivering, not looking up.

import { processCpuMs, threadCpuMs } from "./process-cpu.ts";
import type { Sink } from "./sink.ts";

export interface DeliveryRound {
  deliveries: number;
  seconds: number;
  perSecond: number;
  cpuMsPerDelivery: number;
  /**
   * The same CPU per delivery split by thread (the server's main thread, its signing threads,
   * the rest: V8's helpers, libuv's pool), and this process's (the sink and the load generator).
   */
  split: CpuSplit;
}

export interface CpuSplit {
  main: number;
  signing: number;
  other: number;
  sink: number;
}

/** CPU so far by part, to subtract (see CpuSplit). */
function cpuParts(pid: number): CpuSplit {
  const parts = { main: 0, signing: 0, other: 0, sink: processCpuMs(process.pid) };
  for (const [name, ms] of threadCpuMs(pid)) {
    if (name === "MainThread") parts.main += ms;
    else if (name === "corral-sign") parts.signing += ms;
    else parts.other += ms;
  }
  return parts;
}

function splitSince(pid: number, before: CpuSplit, deliveries: number): CpuSplit {
  const now = cpuParts(pid);
  return {
    main: (now.main - before.main) / deliveries,
    signing: (now.signing - before.signing) / deliveries,
    other: (now.other - before.other) / deliveries,
    sink: (now.sink - before.sink) / deliveries,
  };
}

/** The split as one line of text. */
export function showSplit(s: CpuSplit): string {
  return `main ${s.main.toFixed(3)}, signing ${s.signing.toFixed(3)}, other ${s.other.toFixed(3)}; sink process ${s.sink.toFixed(3)} ms/delivery`;
}

/** The first round, to actors the server has never resolved, and the document GETs it made. */
export interface ColdRound extends DeliveryRound {
  actorGets: number;
  maxGetsPerActor: number;
}

export interface DeliveryTarget {
  /** The server's process, whose CPU is measured. */
  pid: number;
  /** An activity id the sending actor may use (under its own origin). */
  activityId(tag: string): string;
  /** Starts sending these activities to every sink actor; may resolve before they arrive. */
  send(activities: { id: string; to: string[] }[]): Promise<void>;
}

/**
 * K activities to every sink actor before the server knows any of them: each actor's document
 * must be fetched first. Timed like a round; run it before runDeliveryRounds (whose warm-up then
 * finds everything resolved).
 */
export async function runColdRound(
  target: DeliveryTarget,
  sink: Sink,
  options: { perRound: number; timeoutMs?: number },
): Promise<ColdRound> {
  const activities = Array.from({ length: options.perRound }, (_, k) => ({
    id: target.activityId(`cold-${k}`),
    to: sink.actorIds,
  }));
  const getsBefore = sink.tally().actorGets;
  const cpuBefore = processCpuMs(target.pid);
  const partsBefore = cpuParts(target.pid);
  const started = performance.now();
  await target.send(activities);
  const last = await sink.waitForAll(
    activities.map((a) => a.id),
    options.timeoutMs ?? 180_000,
  );
  const cpuMs = processCpuMs(target.pid) - cpuBefore;
  const deliveries = activities.length * sink.actorIds.length;
  const split = splitSince(target.pid, partsBefore, deliveries);
  const seconds = (last - started) / 1000;
  await pause(500);
  const tally = sink.tally();
  return {
    deliveries,
    seconds,
    perSecond: deliveries / seconds,
    cpuMsPerDelivery: cpuMs / deliveries,
    split,
    actorGets: tally.actorGets - getsBefore,
    maxGetsPerActor: tally.maxGetsPerActor,
  };
}

export async function runDeliveryRounds(
  target: DeliveryTarget,
  sink: Sink,
  options: { rounds: number; perRound: number; timeoutMs?: number },
): Promise<DeliveryRound[]> {
  const timeoutMs = options.timeoutMs ?? 180_000;
  const warmUp = [{ id: target.activityId("warm-up"), to: sink.actorIds }];
  await target.send(warmUp);
  await sink.waitForAll([warmUp[0]!.id], timeoutMs);
  await pause(500);

  const results: DeliveryRound[] = [];
  for (let round = 1; round <= options.rounds; round++) {
    const activities = Array.from({ length: options.perRound }, (_, k) => ({
      id: target.activityId(`r${round}-${k}`),
      to: sink.actorIds,
    }));
    const cpuBefore = processCpuMs(target.pid);
    const partsBefore = cpuParts(target.pid);
    const started = performance.now();
    await target.send(activities);
    const last = await sink.waitForAll(
      activities.map((a) => a.id),
      timeoutMs,
    );
    const cpuMs = processCpuMs(target.pid) - cpuBefore;
    const deliveries = activities.length * sink.actorIds.length;
    const split = splitSince(target.pid, partsBefore, deliveries);
    const seconds = (last - started) / 1000;
    results.push({
      deliveries,
      seconds,
      perSecond: deliveries / seconds,
      cpuMsPerDelivery: cpuMs / deliveries,
      split,
    });
    await pause(500); // let the round's tail (outcome writes) finish outside the next one
  }
  return results;
}

/** Throws unless the sink got exactly `expected` POSTs, every one signed (and verified, if the
 * sink verifies), none twice. */
export function assertExactlyOnce(sink: Sink, expected: number, who: string, verified: boolean) {
  const t = sink.tally();
  const checked = verified
    ? `${t.verified} verified, ${t.unverified} failed verification`
    : "presence checked, not verified";
  const line = `${who}: ${t.posts} POSTs for ${expected} deliveries, ${t.duplicates} duplicates, ${t.unsigned} unsigned (signatures: ${t.cavage} draft-cavage, ${t.rfc9421} RFC 9421; ${checked})`;
  console.log(line);
  const badSignatures = verified && (t.unverified > 0 || t.verified !== t.posts);
  if (t.posts !== expected || t.duplicates || t.unsigned || t.unreadable || badSignatures)
    throw new Error(`not every delivery arrived exactly once and signed: ${line}`);
}

export const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
