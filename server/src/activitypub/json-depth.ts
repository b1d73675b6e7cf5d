// JSON from outside (inbox bodies, /fe bodies, looked-up documents) may nest arbitrarily deep.
// JSON.parse copes, but everything after it that walks the value (zod, JSON.stringify, the
// console) recurses and overflows the stack. So the depth is checked on the text first, by a
// scan that keeps a counter and never recurses.

export const MAX_JSON_DEPTH = 256;

export type ParsedJson = { ok: true; value: unknown } | { ok: false; reason: string };

/** Whether `text` opens more than `max` arrays/objects inside one another (strings skipped). */
export function nestsDeeperThan(text: string, max = MAX_JSON_DEPTH): boolean {
  // Text with at most `max` brackets that open cannot nest deeper: counting them with indexOf
  // (native) is several times cheaper than the scan below, and an activity has a few dozen.
  if (fewerOpeningsThan(text, max + 1)) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

function fewerOpeningsThan(text: string, limit: number): boolean {
  let count = 0;
  for (let i = text.indexOf("{"); i >= 0; i = text.indexOf("{", i + 1))
    if (++count >= limit) return false;
  for (let i = text.indexOf("["); i >= 0; i = text.indexOf("[", i + 1))
    if (++count >= limit) return false;
  return true;
}

export const tooDeepReason = `JSON nested too deeply (more than ${MAX_JSON_DEPTH} levels)`;

/** JSON.parse, refusing text nested deeper than MAX_JSON_DEPTH; never throws. */
export function parseJsonText(text: string): ParsedJson {
  if (nestsDeeperThan(text)) return { ok: false, reason: tooDeepReason };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, reason: (error as Error).message };
  }
}
