// node:sqlite still announces itself as experimental on every start; that is noise for
// operators. Import this module before anything that loads node:sqlite (so: dynamically import the
// rest afterwards, since static imports are evaluated first). Remove once node:sqlite is stable.
const emitWarning = process.emitWarning.bind(process);
process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
  const message = typeof warning === "string" ? warning : warning?.message;
  if (/SQLite is an experimental feature/.test(message ?? "")) return;
  return (emitWarning as (...args: unknown[]) => void)(warning, ...rest);
}) as typeof process.emitWarning;
