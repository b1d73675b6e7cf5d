import type { FeResponse } from "../../lib/fe-client.ts";
import { readErrorDetail } from "../../lib/fe-error-detail.ts";
import type { CreateActorRequest } from "../../lib/wire-types.ts";

/**
 * The reason a Create Actor was refused, in words for the "handle" field: a 409 (the handle is
 * taken) or a 422 (each problem's msg; one about another field names it). Null for a created
 * actor or any other failure, which the modal shows.
 */
export function readHandleRefusal(
  result: FeResponse<unknown>,
  request?: CreateActorRequest,
): string | null {
  if (result.ok || (result.status !== 409 && result.status !== 422)) return null;
  const { detail, problems } = readErrorDetail(result.data);
  if (result.status === 409) {
    const handle = request?.handle ? `"${request.handle}" ` : "";
    return `${handle}already taken (${detail})`;
  }
  if (problems.length === 0) return detail;
  return problems
    .map(({ loc, msg }) => {
      const field = loc.replace(/^body\.?/, "");
      return field === "" || field === "handle" ? msg : `${field}: ${msg}`;
    })
    .join("; ");
}
