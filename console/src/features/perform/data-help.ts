// What Perform says about the data box before anything is sent, besides the schema check: an
// activity typed where the method wants it under "data", and an activity that names an actor
// other than the one acting (receivers refuse an activity signed by one actor that claims another).

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Methods that take an activity or object under "data" (Corral's and cattle_grid's). */
const DATA_METHODS = new Set(["send_message", "publish_object", "publish_activity"]);

/** Whether the method's body has a "data" field: its schema says so, else its name does. */
export function takesData(method: string, schema: Json | null): boolean {
  if (schema === null) return DATA_METHODS.has(method);
  return isObject(schema.properties) && "data" in schema.properties;
}

/** An activity (or object) typed as the whole box: it has a `type` and no `data`. */
export function looksLikeBareActivity(box: Json): boolean {
  return "type" in box && !("data" in box);
}

/** The box with what it held put under "data". */
export function putUnderData(box: Json): Json {
  return { data: box };
}

/** The id an ActivityStreams reference names: the string itself, or an object's `id`. */
export function idOf(value: unknown): string | null {
  if (typeof value === "string") return value;
  if (isObject(value) && typeof value.id === "string") return value.id;
  return null;
}

/** The actor `data.actor` names when it is not the one acting; null when it is, or names none. */
export function otherActorIn(box: Json, acting: string): string | null {
  const data = box.data;
  if (!isObject(data) || data.actor === undefined) return null;
  const named = idOf(data.actor);
  if (named === acting) return null;
  return named ?? JSON.stringify(data.actor);
}
