#!/usr/bin/env node
// `corral serve | account …`. Every failure a user can cause ends as one line on stderr and a
// non-zero exit: 2 for a bad command line, 1 for anything else (database, port, …).

// First, before anything loads node:sqlite; the rest is imported dynamically for that reason.
import "./quiet-warnings.ts";

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
