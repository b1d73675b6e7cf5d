// Help as operators know it from `gh` and `fedify`: usage, commands, then every option with its
// meaning, default and environment variable. Written from commands.ts, never by hand.

import { commands, optionsOf, type AnyOption, type CommandSpec } from "./commands.ts";
import { backendVersion } from "../version.ts";

export const versionLine = `corral ${backendVersion}`;

const helpOption = { flag: "-h, --help", meaning: "show this help" };

export function mainHelp(): string {
  const rows = Object.values(commands).map((spec) => [spec.name, spec.summary]);
  rows.push(["help", "show a command's options: corral help COMMAND"]);
  return [
    "corral: an operator console for cattle_grid, and an ActivityPub server speaking its account API",
    "",
    "Usage:",
    "  corral COMMAND [options]",
    "",
    "Commands:",
    ...table(rows),
    "",
    "Options:",
    ...table([
      [helpOption.flag, "show help (after a command: that command's help)"],
      ["-V, --version", "print the version"],
    ]),
    "",
    "Options of serve (corral help serve gives each one's default and environment variable):",
    ...table(optionsOf(commands.serve).map((option) => [label(option), option.meaning])),
    "",
    "Run `corral help COMMAND` or `corral COMMAND --help` for its options, defaults and",
    "environment variables.",
  ].join("\n");
}

export function commandHelp(spec: CommandSpec): string {
  const lines = [`corral ${spec.name}: ${spec.summary}`, "", "Usage:"];
  lines.push(...spec.usage.map((usage) => `  corral ${usage}`));
  if (spec.actions) {
    lines.push("", "Actions:", ...table(spec.actions.map((a) => [a.usage, a.meaning])));
  }
  lines.push("", "Options:");
  const options = optionsOf(spec);
  const rows = options.map((option) => [label(option), option.meaning, details(option)]);
  rows.push([helpOption.flag, helpOption.meaning, ""]);
  lines.push(...table(rows));
  if (options.some((option) => "env" in option)) {
    lines.push("", "A flag wins over its environment variable.");
  }
  if (spec.notes) lines.push("", ...spec.notes);
  return lines.join("\n");
}

function label(option: AnyOption): string {
  const value = option.value ? ` ${option.value}` : "";
  return `${option.flag}${value}${option.repeatable ? " ..." : ""}`;
}

function details(option: AnyOption): string {
  const parts = [];
  if (option.default !== undefined) parts.push(`default: ${option.default}`);
  if ("env" in option) {
    const note = option.envNote === "=1" ? "=1" : option.envNote ? ` (${option.envNote})` : "";
    parts.push(`env: ${option.env}${note}`);
  }
  return parts.join("; ");
}

/** Two columns; a third cell goes on its own line under the second column. */
function table(rows: string[][]): string[] {
  const width = Math.max(...rows.map((row) => row[0]!.length)) + 2;
  return rows.flatMap(([first = "", second = "", third = ""]) => {
    const line = `  ${first.padEnd(width)}${second}`;
    return third ? [line, `  ${"".padEnd(width)}${third}`] : [line];
  });
}
