// The delivery bench's one table, and the same figures as JSON in bench/results/.

import { mkdirSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { format } from "prettier";
import type { DeliveryRound } from "./delivery-load.ts";
import type { InboxResult } from "./inbox-load.ts";

interface Side {
  delivery: DeliveryRound[];
  inbox: InboxResult;
}

export interface DeliveryBenchResult {
  setup: Record<string, unknown> & { database: string };
  loadAverageAtStart: number[];
  signRate: number;
  corral: Side;
  fedify: Side;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const summary = (rounds: DeliveryRound[]) => ({
  perSecond: median(rounds.map((r) => r.perSecond)),
  cpuMsPerDelivery: median(rounds.map((r) => r.cpuMsPerDelivery)),
});

export async function printAndSave(result: DeliveryBenchResult) {
  const corral = summary(result.corral.delivery);
  const fedify = summary(result.fedify.delivery);
  const { inbox: ci } = result.corral;
  const { inbox: fi } = result.fedify;
  const rounds = (side: Side) =>
    side.delivery
      .map((r) => `${Math.round(r.perSecond)}/s ${r.cpuMsPerDelivery.toFixed(2)} ms`)
      .join(", ");
  const f0 = (x: number) => String(Math.round(x));
  const f2 = (x: number) => x.toFixed(2);
  const rows: [string, string, string, string][] = [
    ["", "Corral", "bare Fedify", "Corral ÷ Fedify"],
    ["RSA-2048 signatures/s, one core", f0(result.signRate), "", ""],
    [
      "deliveries/s (median round)",
      f0(corral.perSecond),
      f0(fedify.perSecond),
      f2(corral.perSecond / fedify.perSecond),
    ],
    [
      "  ÷ single-core sign rate",
      f2(corral.perSecond / result.signRate),
      f2(fedify.perSecond / result.signRate),
      "",
    ],
    [
      "server CPU ms/delivery (median)",
      f2(corral.cpuMsPerDelivery),
      f2(fedify.cpuMsPerDelivery),
      f2(corral.cpuMsPerDelivery / fedify.cpuMsPerDelivery),
    ],
    [
      "inbox accepted/s",
      f0(ci.acceptedPerSecond),
      f0(fi.acceptedPerSecond),
      f2(ci.acceptedPerSecond / fi.acceptedPerSecond),
    ],
    [
      "inbox processed/s (on stream / listener)",
      f0(ci.processedPerSecond),
      f0(fi.processedPerSecond),
      f2(ci.processedPerSecond / fi.processedPerSecond),
    ],
    [
      "inbox server CPU ms/activity",
      f2(ci.cpuMsPerActivity),
      f2(fi.cpuMsPerActivity),
      f2(ci.cpuMsPerActivity / fi.cpuMsPerActivity),
    ],
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
