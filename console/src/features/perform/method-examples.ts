import type { MethodInformation } from "../../lib/wire-types.ts";

const AS_CONTEXT = "https://www.w3.org/ns/activitystreams";
const PUBLIC = "https://www.w3.org/ns/activitystreams#Public";

/** server.md §8: entries may carry `example`, a body without `actor` that passes the schema. */
function serverExample(info: MethodInformation | undefined): Record<string, unknown> | null {
  const example = (info as { example?: unknown } | undefined)?.example;
  return typeof example === "object" && example !== null && !Array.isArray(example)
    ? (example as Record<string, unknown>)
    : null;
}

// The server's examples cannot know who acts: an activity sent or published as the current actor
// names it as its actor (publish_activity requires it), so the example is filled in here.
const ACTIVITY_METHODS = new Set(["send_message", "publish_activity"]);

function withActor(
  example: Record<string, unknown>,
  method: string,
  actor: string,
): Record<string, unknown> {
  const data = example.data;
  if (!ACTIVITY_METHODS.has(method) || typeof data !== "object" || data === null) return example;
  if (Array.isArray(data) || "actor" in data) return example;
  return { ...example, data: { ...data, actor } };
}

/**
 * The body "Insert example" puts in 'data': the server's example, else a skeleton for the five
 * methods Corral and cattle_grid share, addressed to the actor's followers. Null when neither.
 */
export function exampleFor(
  info: MethodInformation | undefined,
  method: string,
  actor: string,
): Record<string, unknown> | null {
  const fromServer = serverExample(info);
  if (fromServer) return withActor(fromServer, method, actor);
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
