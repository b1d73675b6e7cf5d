// The delivery bench's one table, and the same figures as JSON in bench/results/.

import { mkdirSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { format } from "prettier";
import type { ColdRound, DeliveryRound } from "./delivery-load.ts";
import type { InboxResult } from "./inbox-load.ts";

interface Side {
  /** Missing when the run left that part out (`--part`). */
  delivery?: DeliveryRound[];
  /** The first round, to actors not yet resolved (issue 25: at most one GET each, ≥ 0.8× warm). */
  cold?: ColdRound;
  /** The round before it, the first after the server started, to N other new actors. */
  first?: ColdRound;
  inbox?: InboxResult;
}

export interface DeliveryBenchResult {
  setup: Record<string, unknown> & { database: string };
  loadAverageAtStart: number[];
  signRate: number;
  corral: Side;
  fedify: Side;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const summary = (rounds: DeliveryRound[] | undefined) =>
  rounds && rounds.length > 0
    ? {
        perSecond: median(rounds.map((r) => r.perSecond)),
        cpuMsPerDelivery: median(rounds.map((r) => r.cpuMsPerDelivery)),
      }
    : undefined;

/** A figure as text; "-" when the run did not measure it. */
const show = (x: number | undefined, digits: number) =>
  x === undefined || !Number.isFinite(x) ? "-" : x.toFixed(digits);
const ratio = (a: number | undefined, b: number | undefined) =>
  a === undefined || b === undefined ? undefined : a / b;

export async function printAndSave(result: DeliveryBenchResult) {
  const corral = summary(result.corral.delivery);
  const fedify = summary(result.fedify.delivery);
  const { inbox: ci } = result.corral;
  const { inbox: fi } = result.fedify;
  const rounds = (side: Side) =>
    side.delivery
      ?.map((r) => `${Math.round(r.perSecond)}/s ${r.cpuMsPerDelivery.toFixed(2)} ms`)
      .join(", ") ?? "-";
  const f0 = (x: number | undefined) => show(x, 0);
  const f2 = (x: number | undefined) => show(x, 2);
  /** A row of one figure for Corral, bare Fedify and their ratio. */
  const row = (
    label: string,
    c: number | undefined,
    f: number | undefined,
    format: (x: number | undefined) => string,
  ): [string, string, string, string] => [label, format(c), format(f), f2(ratio(c, f))];
  const rows: [string, string, string, string][] = [
    ["", "Corral", "bare Fedify", "Corral ÷ Fedify"],
    ["RSA-2048 signatures/s, one core", f0(result.signRate), "", ""],
    row("deliveries/s (median round)", corral?.perSecond, fedify?.perSecond, f0),
    [
      "  ÷ single-core sign rate",
      f2(ratio(corral?.perSecond, result.signRate)),
      f2(ratio(fedify?.perSecond, result.signRate)),
      "",
    ],
    row("server CPU ms/delivery (median)", corral?.cpuMsPerDelivery, fedify?.cpuMsPerDelivery, f2),
    row(
      "first round after start, new actors",
      result.corral.first?.perSecond,
      result.fedify.first?.perSecond,
      f0,
    ),
    row(
      "cold round deliveries/s",
      result.corral.cold?.perSecond,
      result.fedify.cold?.perSecond,
      f0,
    ),
    [
      "  ÷ warm (median round)",
      f2(ratio(result.corral.cold?.perSecond, corral?.perSecond)),
      f2(ratio(result.fedify.cold?.perSecond, fedify?.perSecond)),
      "",
    ],
    row("cold round actor GETs", result.corral.cold?.actorGets, result.fedify.cold?.actorGets, f0),
    row(
      "  most GETs of one actor",
      result.corral.cold?.maxGetsPerActor,
      result.fedify.cold?.maxGetsPerActor,
      f0,
    ),
    row("inbox accepted/s", ci?.acceptedPerSecond, fi?.acceptedPerSecond, f0),
    row(
      "inbox processed/s (on stream / listener)",
      ci?.processedPerSecond,
      fi?.processedPerSecond,
      f0,
    ),
    row("inbox server CPU ms/activity", ci?.cpuMsPerActivity, fi?.cpuMsPerActivity, f2),
  ];
  const widths = [0, 1, 2, 3].map((c) => Math.max(...rows.map((r) => r[c]!.length)));
  console.log("");
  for (const row of rows)
    console.log(
      row
        .map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!)))
        .join("  "),
    );
  console.log(`rounds: Corral ${rounds(result.corral)}; bare Fedify ${rounds(result.fedify)}`);
  const now = loadavg().map((x) => x.toFixed(2));
  console.log(
    `load average at start ${result.loadAverageAtStart.map((x) => x.toFixed(2)).join(" ")}, at end ${now.join(" ")}`,
  );

  const saved = {
    ...result,
    setup: {
      ...result.setup,
      database: result.setup.database.replace(/\/\/([^:/@]+):[^@/]*@/, "//$1:***@"),
    },
    loadAverageAtEnd: loadavg(),
    summary: { corral, fedify },
    at: new Date().toISOString(),
  };
  const dir = new URL("../results/", import.meta.url);
  mkdirSync(dir, { recursive: true });
  const file = new URL(`delivery-${saved.at.replace(/[:.]/g, "-")}.json`, dir);
  // Formatted as `npm run check` expects, so a results file never fails the format check.
  writeFileSync(file, await format(JSON.stringify(saved), { parser: "json" }));
  console.log(`written to ${file.pathname}`);
}
