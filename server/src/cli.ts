#!/usr/bin/env node
// `corral serve | account … | lookup URI | help`. Every failure a user can cause ends as one line
// on stderr and a non-zero exit: 2 for a bad command line, 1 for anything else (database, port,
// a lookup that failed). Help and the version go to stdout with exit code 0.

// First, before anything loads node:sqlite; the rest is imported dynamically for that reason.
import "./quiet-warnings.ts";

const { ConfigError } = await import("./config.ts");
const { parseCommandLine } = await import("./cli/parse.ts");

try {
  // The one place that touches process.argv and process.env.
  const command = parseCommandLine(process.argv.slice(2), process.env);
  if (command.command === "print") console.log(command.text);
  // Loaded on demand: account commands need neither Fedify nor the HTTP stack.
  else if (command.command === "serve") await (await import("./main.ts")).serve(command.config);
  else if (command.command === "lookup") await (await import("./cli/lookup.ts")).runLookup(command);
  else await (await import("./accounts/accounts.cli.ts")).runAccountCommand(command);
} catch (error) {
  console.error(`corral: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(error instanceof ConfigError ? 2 : 1);
}
