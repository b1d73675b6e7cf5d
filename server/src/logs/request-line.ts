import type { LogRecord } from "@logtape/logtape";

// The request line (web/request-log.ts: one per HTTP request, under inbox load nearly one per
// inbox POST) written as LogTape's text formatter writes it, without rendering the template
// each time: parsing "{method} {path} {status} {ms} ms" anew, and util.inspect for the two
// numbers, were about half of the line's CPU. Anything unusual (another message, a value that is
// not printable ASCII or a plain number) returns undefined and goes to LogTape's formatter, so
// the text is the same either way (request-line.test.ts compares them).

export const REQUEST_LINE_TEMPLATE = "{method} {path} {status} {ms} ms";
const printable = /^[\x20-\x7e]*$/;
const levels: Partial<Record<string, string>> = { info: "INF", warning: "WRN", error: "ERR" };

/** The text line of a request-line record, as getTextFormatter({timestamp: "rfc3339", value: "bare"}). */
export function formatRequestLine(record: LogRecord): string | undefined {
  if (record.rawMessage !== REQUEST_LINE_TEMPLATE) return undefined;
  const level = levels[record.level];
  if (level === undefined) return undefined;
  const { method, path, status, ms } = record.properties;
  if (typeof method !== "string" || !printable.test(method)) return undefined;
  if (typeof path !== "string" || !printable.test(path)) return undefined;
  if (!plainNumber(status) || !plainNumber(ms)) return undefined;
  const category = record.category.join("·");
  if (!printable.test(record.category.join(""))) return undefined;
  return `${new Date(record.timestamp).toISOString()} [${level}] ${category}: ${method} ${path} ${status} ${ms} ms\n`;
}

/** A number util.inspect writes as String() does. */
const plainNumber = (value: unknown): value is number =>
  typeof value === "number" && Number.isFinite(value) && !Object.is(value, -0);
