// LogTape, configured once at start (`corral serve`): every line to stderr, as text or as one
// JSON object per line. Corral's own categories log at --log-level; Fedify's (it logs through
// LogTape too) only from warnings up, unless the operator asks for debug.

import { AsyncLocalStorage } from "node:async_hooks";
import {
  compareLogLevel,
  configure,
  getJsonLinesFormatter,
  getTextFormatter,
  type LogLevel,
  type LogRecord,
  type Sink,
} from "@logtape/logtape";
import { createLineBuffer, type LineBuffer } from "./line-buffer.ts";
import { formatRequestLine } from "./request-line.ts";

export interface LoggingOptions {
  format: "text" | "json";
  level: LogLevel;
}

/** The stricter of two levels. */
function atLeast(level: LogLevel, floor: LogLevel): LogLevel {
  return compareLogLevel(level, floor) >= 0 ? level : floor;
}

/** Fedify's records: from `floor` up, unless the operator asked for debug or trace. */
function fedifyLevel(level: LogLevel, floor: LogLevel): LogLevel {
  return level === "debug" || level === "trace" ? level : atLeast(level, floor);
}

let stderrLines: LineBuffer | undefined;

export async function configureLogging(options: LoggingOptions): Promise<void> {
  const text = getTextFormatter({ timestamp: "rfc3339", value: "bare" });
  const format =
    options.format === "json"
      ? getJsonLinesFormatter({ message: "rendered", categorySeparator: "." })
      : (record: LogRecord) => formatRequestLine(record) ?? text(record);
  // The lines of one event-loop turn are written together (line-buffer.ts), and whatever is
  // queued when the process exits is written then (stderr is synchronous for files and pipes on
  // Linux): a line logged just before process.exit is not lost.
  stderrLines ??= createLineBuffer((text) => process.stderr.write(text));
  const lines = stderrLines;
  const sink: Sink = (record: LogRecord) => lines.write(format(record));
  // The sink formats each record at once, so LogTape need not first copy the record's properties
  // for it (as it must for a sink that keeps records to format later). LogTape's own immediate
  // sinks say so with this registered symbol; without it the line costs twice as much.
  Object.defineProperty(sink, Symbol.for("LogTape.sinkSnapshotPolicy.immediate"), { value: true });
  await configure({
    reset: true,
    // Fedify adds context (request ids) to its records through this.
    contextLocalStorage: new AsyncLocalStorage(),
    sinks: { stderr: sink },
    loggers: [
      { category: ["corral"], sinks: ["stderr"], lowestLevel: options.level },
      {
        category: ["fedify"],
        sinks: ["stderr"],
        lowestLevel: fedifyLevel(options.level, "warning"),
      },
      // Fedify reports every 4xx it answers as a warning; corral.http has a line per request.
      {
        category: ["fedify", "federation", "http"],
        sinks: [],
        parentSinks: "inherit",
        lowestLevel: fedifyLevel(options.level, "error"),
      },
      { category: ["logtape", "meta"], sinks: ["stderr"], lowestLevel: "warning" },
    ],
  });
}
