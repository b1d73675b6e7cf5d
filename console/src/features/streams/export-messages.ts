// "Export": the messages listed now, redacted, as one JSON array or as NDJSON (one per line).
import { redact } from "../../lib/redact.ts";
import type { StreamMessage } from "../../lib/streams/stream-store.ts";

export type ExportFormat = "json" | "ndjson";

const pad = (n: number) => String(n).padStart(2, "0");

/** corral-{stream}-{yyyyMMdd-HHmmss}.{json|ndjson}, in local time. */
export function exportFileName(stream: string, format: ExportFormat, at: Date): string {
  const date = `${at.getFullYear()}${pad(at.getMonth() + 1)}${pad(at.getDate())}`;
  const time = `${pad(at.getHours())}${pad(at.getMinutes())}${pad(at.getSeconds())}`;
  return `corral-${stream}-${date}-${time}.${format}`;
}

export function exportContent(messages: readonly StreamMessage[], format: ExportFormat): string {
  const redacted = messages.map((message) => redact(message.data));
  if (format === "json") return `${JSON.stringify(redacted, null, 2)}\n`;
  return redacted.map((data) => `${JSON.stringify(data)}\n`).join("");
}

/** Hands the file to the browser's download. */
export function downloadFile(name: string, content: string, format: ExportFormat): void {
  const type = format === "json" ? "application/json" : "application/x-ndjson";
  const url = URL.createObjectURL(new Blob([content], { type }));
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  link.click();
  // The download has its own reference by now; revoking later is only tidiness.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
