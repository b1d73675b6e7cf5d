// Web Worker entry: compares two large documents off the main thread (see use-json-diff.ts).
import { diffJson } from "./diff-json.ts";

self.onmessage = (event: MessageEvent<{ before: unknown; after: unknown }>) => {
  postMessage(diffJson(event.data.before, event.data.after));
};
