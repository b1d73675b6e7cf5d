import { getTextFormatter, type LogRecord } from "@logtape/logtape";
import { describe, expect, it } from "vitest";
import { formatRequestLine, REQUEST_LINE_TEMPLATE } from "./request-line.ts";

const lineOf = (values: { method: unknown; path: unknown; status: unknown; ms: unknown }) =>
  ({
    category: ["corral", "http"],
    level: "info",
    rawMessage: REQUEST_LINE_TEMPLATE,
    message: ["", values.method, " ", values.path, " ", values.status, " ", values.ms, " ms"],
    properties: { ...values, client: "127.0.0.1" },
    timestamp: Date.UTC(2026, 10, 28, 7, 14, 32, 58),
  }) as LogRecord;

describe("the request line", () => {
  const logtape = getTextFormatter({ timestamp: "rfc3339", value: "bare" });

  it("is written as LogTape's text formatter writes it", () => {
    for (const values of [
      { method: "POST", path: "/inbox", status: 202, ms: 1.3 },
      { method: "GET", path: "/fe/account/stream/incoming", status: 200, ms: 0 },
      { method: "POST", path: "/actor/abc_D-9/inbox", status: 401, ms: 1234.5 },
    ]) {
      const line = formatRequestLine(lineOf(values));
      expect(line).toBe(logtape(lineOf(values)));
      expect(line).toMatch(/^2026-11-28T07:14:32\.058Z \[INF\] corral·http: /);
    }
  });

  it("leaves anything unusual to LogTape: other messages, control characters, odd numbers", () => {
    const other = { ...lineOf({ method: "GET", path: "/", status: 200, ms: 1 }) };
    expect(formatRequestLine({ ...other, rawMessage: "{method} {path}" })).toBeUndefined();
    for (const values of [
      { method: "GET", path: "/a\u001b[31mred", status: 200, ms: 1 },
      { method: "GET", path: "/é", status: 200, ms: 1 },
      { method: "GET", path: "/", status: "200", ms: 1 },
      { method: "GET", path: "/", status: 200, ms: -0 },
      { method: "GET", path: "/", status: 200, ms: Number.NaN },
    ])
      expect(formatRequestLine(lineOf(values))).toBeUndefined();
  });
});
