// Signing in to a Corral over HTTP, as the console does: POST /fe/signin, and the bearer token back.

/** Signs `name` in at `target` (a URL, or anything with one) and returns the bearer token. */
export async function signIn(
  target: string | { url: string },
  name: string,
  password = `${name}-password`,
): Promise<string> {
  const url = typeof target === "string" ? target : target.url;
  const response = await fetch(`${url}/fe/signin`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ name, password }),
  });
  if (response.status !== 200)
    throw new Error(`sign-in of ${name} answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { token: string }).token;
}
