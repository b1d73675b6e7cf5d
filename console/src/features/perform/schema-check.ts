import { Validator, type OutputUnit, type SchemaDraft } from "@cfworker/json-schema";

// Perform's check of the data box against the chosen method's JSON Schema (methodInformation's
// `schema`, the body beside `actor`: docs/perform.md), before anything is sent. The validator
// interprets schemas (no `new Function`), so it runs under the console's script-src 'self'
// (docs/adr/0011-json-schema-in-the-browser.md).

export type SchemaProblem = {
  /** Where in the box, as a person writes it: `data`, `data.object`, `actions[0]`; "" for the box. */
  path: string;
  /** What is wrong there, in words. */
  words: string;
};

export type SchemaCheck =
  | { kind: "unchecked" } // the method carries no schema
  | { kind: "passed" }
  | { kind: "failed"; problems: SchemaProblem[] };

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The schema a method information entry carries, if any (cattle_grid's carry none). */
export function schemaOf(info: unknown): Json | null {
  const schema = isObject(info) ? info.schema : undefined;
  return isObject(schema) ? schema : null;
}

/** The draft named by `$schema`; 2020-12 (what Corral's server publishes) when it names none. */
export function draftOf(schema: Json): SchemaDraft {
  const named = typeof schema.$schema === "string" ? schema.$schema : "";
  if (named.includes("draft-04")) return "4";
  if (/draft-0[67]/.test(named)) return "7";
  if (named.includes("2019-09")) return "2019-09";
  return "2020-12";
}

// Keywords that only say "something below failed": their own line adds nothing when a unit
// below them names the problem.
const WRAPPERS = new Set([
  "properties",
  "patternProperties",
  "additionalProperties",
  "unevaluatedProperties",
  "items",
  "prefixItems",
  "additionalItems",
  "unevaluatedItems",
  "allOf",
  "$ref",
  "$recursiveRef",
  "$dynamicRef",
  "dependentSchemas",
  "dependencies",
  "if",
  "then",
  "else",
]);
const CHOICES = new Set(["anyOf", "oneOf"]);

export function checkAgainstSchema(schema: Json | null, body: Json): SchemaCheck {
  if (schema === null) return { kind: "unchecked" };
  const result = new Validator(schema, draftOf(schema), false).validate(body);
  if (result.valid) return { kind: "passed" };
  const problems = new Map<string, SchemaProblem>();
  for (const unit of namedUnits(result.errors)) {
    const problem = describeUnit(unit, body);
    problems.set(`${problem.path}\n${problem.words}`, problem);
  }
  return { kind: "failed", problems: [...problems.values()] };
}

/** The units that name a problem: wrappers with a more precise unit below them are left out. */
function namedUnits(units: readonly OutputUnit[]): OutputUnit[] {
  const below = (unit: OutputUnit, other: OutputUnit) =>
    other.keywordLocation.startsWith(`${unit.keywordLocation}/`) ||
    other.instanceLocation.startsWith(`${unit.instanceLocation}/`);
  const choices = units.filter((unit) => CHOICES.has(unit.keyword));
  return units.filter((unit) => {
    // Under anyOf / oneOf, each alternative's failure is not the problem: matching none is.
    if (choices.some((choice) => choice !== unit && below(choice, unit))) return false;
    if (!WRAPPERS.has(unit.keyword)) return true;
    return !units.some((other) => other !== unit && below(unit, other));
  });
}

function segmentsOf(location: string): string[] {
  return location
    .replace(/^#\/?/, "")
    .split("/")
    .filter((segment) => segment !== "")
    .map((segment) => decodeURIComponent(segment).replace(/~1/g, "/").replace(/~0/g, "~"));
}

/** `data.object`, `actions[0]`, `data["@context"]`. */
export function pathInWords(segments: readonly string[]): string {
  return segments
    .map((segment, index) => {
      if (/^\d+$/.test(segment)) return `[${segment}]`;
      if (/^[A-Za-z_$][\w$]*$/.test(segment)) return index === 0 ? segment : `.${segment}`;
      return `[${JSON.stringify(segment)}]`;
    })
    .join("");
}

function valueAt(body: unknown, segments: readonly string[]): unknown {
  let value = body;
  for (const segment of segments) {
    if (Array.isArray(value)) value = value[Number(segment)];
    else if (isObject(value)) value = value[segment];
    else return undefined;
  }
  return value;
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  if (typeof value === "number" && Number.isInteger(value)) return "an integer";
  const type = typeof value;
  return `a ${type}`;
}

const TYPE_WORDS: Record<string, string> = {
  object: "an object",
  array: "an array",
  string: "a string",
  number: "a number",
  integer: "an integer",
  boolean: "true or false",
  null: "null",
};

function describeUnit(unit: OutputUnit, body: Json): SchemaProblem {
  const at = segmentsOf(unit.instanceLocation);
  const quoted = (pattern: RegExp) => [...unit.error.matchAll(pattern)].map((m) => m[1]!);
  switch (unit.keyword) {
    case "required": {
      const [name] = quoted(/required property "(.*)"\./g);
      if (name !== undefined) return { path: pathInWords([...at, name]), words: "is missing" };
      break;
    }
    case "type": {
      const expected = quoted(/"([a-z]+)"/g).slice(1);
      const wanted = expected.map((type) => TYPE_WORDS[type] ?? type).join(" or ");
      const actual = kindOf(valueAt(body, at));
      return { path: pathInWords(at), words: `must be ${wanted}, not ${actual}` };
    }
    case "enum":
    case "const": {
      const allowed = /does not match (?:any of )?(.*)\.$/.exec(unit.error)?.[1];
      if (allowed)
        return {
          path: pathInWords(at),
          words: `must be ${unit.keyword === "enum" ? "one of " : ""}${allowed}`,
        };
      break;
    }
    case "false":
      return { path: pathInWords(at), words: "is not allowed here" };
    case "anyOf":
    case "oneOf":
      return { path: pathInWords(at), words: "matches none of the shapes the method allows" };
  }
  // The validator's own sentence ("String is too short (1 < 2).").
  return { path: pathInWords(at), words: unit.error.replace(/\.$/, "") };
}
