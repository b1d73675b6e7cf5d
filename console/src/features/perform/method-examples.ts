import type { MethodInformation } from "../../lib/wire-types.ts";

const AS_CONTEXT = "https://www.w3.org/ns/activitystreams";
const PUBLIC = "https://www.w3.org/ns/activitystreams#Public";

/**
 * docs/api.md#get-feaccountinfo: entries may carry `example`, a body without `actor` that passes
 * the schema.
 */
function serverExample(info: MethodInformation | undefined): Record<string, unknown> | null {
  const example = (info as { example?: unknown } | undefined)?.example;
  return typeof example === "object" && example !== null && !Array.isArray(example)
    ? (example as Record<string, unknown>)
    : null;
}

/**
 * The body "Insert example" puts in 'data': the server's example as it is (Corral's pass its check
 * with only actor beside them: an activity without data.actor is the acting actor's), else a
 * skeleton for the five methods Corral and cattle_grid share, addressed to the actor's followers
 * (cattle_grid fills nothing in, so the skeleton names the actor). Null when neither.
 */
export function exampleFor(
  info: MethodInformation | undefined,
  method: string,
  actor: string,
): Record<string, unknown> | null {
  const fromServer = serverExample(info);
  if (fromServer) return fromServer;
  const audience = { to: [PUBLIC], cc: [`${actor}/followers`] };
  const note = { type: "Note", attributedTo: actor, content: "Hello from Corral", ...audience };
  switch (method) {
    case "send_message":
      // Delivered exactly as given, so it needs its own id; a fragment of the actor's is one.
      return {
        data: {
          "@context": AS_CONTEXT,
          id: `${actor}#create-${Date.now()}`,
          type: "Create",
          actor,
          ...audience,
          object: { ...note, id: `${actor}#note-${Date.now()}` },
        },
      };
    case "update_actor":
      return { profile: { name: "New name", summary: "What this actor is about" } };
    case "delete_actor":
      return {};
    case "publish_object":
      return { data: note };
    case "publish_activity":
      return { data: { "@context": AS_CONTEXT, type: "Create", actor, ...audience, object: note } };
    default:
      return null;
  }
}
