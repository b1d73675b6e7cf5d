#!/usr/bin/env node
// `corral serve | account …`. Every failure a user can cause ends as one line on stderr and a
// non-zero exit: 2 for a bad command line, 1 for anything else (database, port, …).

// node:sqlite still announces itself as experimental on every start; that is noise for
// operators. Filter that one warning, then load the rest (static imports would load node:sqlite
// before this line runs).
const emitWarning = process.emitWarning.bind(process);
process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
  const message = typeof warning === "string" ? warning : warning?.message;
  if (/SQLite is an experimental feature/.test(message ?? "")) return;
  return (emitWarning as (...args: unknown[]) => void)(warning, ...rest);
}) as typeof process.emitWarning;

const { ConfigError, readCommandLine, usage } = await import("./config.ts");

try {
  const command = readCommandLine();
  if (command.command === "help") console.log(usage);
  // Loaded on demand: account commands need neither Fedify nor the HTTP stack.
  else if (command.command === "serve") await (await import("./main.ts")).serve(command.config);
  else await (await import("./accounts/accounts.cli.ts")).runAccountCommand(command);
} catch (error) {
  console.error(`corral: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(error instanceof ConfigError ? 2 : 1);
}
