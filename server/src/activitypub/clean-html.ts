// HTML as muck_out 0.3.16 cleans it (nh3, that is ammonia, with muck_out's settings): only its
// tags, only ammonia's attributes for them (plus `class` on links, kept to mention/hashtag), link
// schemes checked, `rel="noopener noreferrer"` on links, script and style dropped with their
// text, text re-escaped as html5ever writes it. `plainText` drops every tag. A small tokenizer,
// not a browser's parser: close enough for what servers send; nothing here is ever rendered.

const allowedTags = new Set(
  "a abbr acronym b blockquote code em i li ol strong ul p br span h1 h2 h3 h4 h5 h6 hr".split(" "),
);
const voidTags = new Set([
  "br",
  "hr",
  "img",
  "input",
  "meta",
  "link",
  "area",
  "base",
  "col",
  "embed",
  "source",
  "track",
  "wbr",
]);
const dropWithContent = new Set(["script", "style"]);
const generic = new Set(["lang", "title"]);
const tagAttributes: Record<string, Set<string>> = {
  a: new Set(["href", "hreflang", "class"]),
  blockquote: new Set(["cite"]),
  ol: new Set(["start"]),
  hr: new Set(["width", "size", "align"]),
};
const urlAttributes = new Set(["href", "cite"]);
const schemes = new Set(
  "bitcoin ftp ftps geo http https im irc ircs magnet mailto mms mx news nntp openpgp4fpr sip sms smsto ssh tel url webcal wtai xmpp".split(
    " ",
  ),
);

const named: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: "\u00a0",
};
function decode(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);?/gi, (whole, name: string) => {
    if (name[0] === "#") {
      const code =
        name[1] === "x" || name[1] === "X"
          ? parseInt(name.slice(2), 16)
          : parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : "\ufffd";
    }
    return named[name.toLowerCase()] ?? whole;
  });
}
const escapeText = (text: string) =>
  text
    .replace(/&/g, "&amp;")
    .replace(/\u00a0/g, "&nbsp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;");
const escapeAttribute = (text: string) =>
  text
    .replace(/&/g, "&amp;")
    .replace(/\u00a0/g, "&nbsp;")
    .replace(/"/g, "&quot;");

const token =
  /<!--[\s\S]*?(?:-->|$)|<(\/?)([a-zA-Z][a-zA-Z0-9]*)((?:[^>"']|"[^"]*"|'[^']*')*)>|<[^>]*$/g;
const attribute = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g;

/** Text with no tag, entity or character that escaping changes comes out as it went in. */
const untouched = /^[^<>&\u00a0]*$/;

function clean(html: string, keepTags: boolean): string {
  if (untouched.test(html)) return html;
  let out = "";
  let at = 0;
  const open: string[] = [];
  let skipping: string | null = null;
  const text = (part: string) => {
    if (!skipping) out += escapeText(decode(part));
  };
  for (const match of html.matchAll(token)) {
    text(html.slice(at, match.index));
    at = match.index + match[0].length;
    const [, slash, rawName, rest] = match;
    if (!rawName) continue; // a comment, or a tag cut off at the end
    const name = rawName.toLowerCase();
    if (skipping) {
      if (slash && name === skipping) skipping = null;
      continue;
    }
    if (dropWithContent.has(name)) {
      if (!slash) skipping = name;
      continue;
    }
    if (!keepTags || !allowedTags.has(name)) continue;
    if (slash) {
      const index = open.lastIndexOf(name);
      if (index < 0) continue;
      for (const inner of open.splice(index).reverse()) out += `</${inner}>`;
      continue;
    }
    out += `<${name}${attributes(name, rest ?? "")}>`;
    if (!voidTags.has(name)) open.push(name);
  }
  text(html.slice(at));
  for (const inner of open.reverse()) out += `</${inner}>`;
  return out;
}

function attributes(tag: string, source: string): string {
  let out = "";
  const seen = new Set<string>();
  for (const match of source.matchAll(attribute)) {
    const name = match[1]!.toLowerCase();
    if (seen.has(name)) continue;
    seen.add(name);
    if (!generic.has(name) && !tagAttributes[tag]?.has(name)) continue;
    let value = decode(match[2] ?? match[3] ?? match[4] ?? "");
    if (urlAttributes.has(name)) {
      const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(value.trim());
      if (scheme && !schemes.has(scheme[1]!.toLowerCase())) continue;
    }
    if (tag === "a" && name === "class") {
      value = value
        .split(" ")
        .filter((c) => c === "mention" || c === "hashtag")
        .join(" ");
      if (value === "") continue;
    }
    out += ` ${name}="${escapeAttribute(value)}"`;
  }
  if (tag === "a") out += ` rel="noopener noreferrer"`;
  return out;
}

/** muck_out's sanitize_html. */
export function cleanHtml(html: string): string {
  return clean(html, true);
}

/** muck_out's remove_html: the text, every tag gone, still escaped as HTML text. */
export function plainText(html: string): string {
  return clean(html, false);
}
