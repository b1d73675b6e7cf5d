// Waiting for a state that no event announces: asking again every 25 ms until it holds. For a
// peer's write that becomes visible only after its answer, as cattle_grid commits a token and a
// new actor (docs/cattle-grid-differences.md#writes-answered-before-they-are-committed).

/**
 * Resolves once `check` resolves true; a rejection counts as not yet. Rejects after `timeoutMs`
 * (15 s unless given) with `what`, and the last rejection's message if there was one.
 */
export async function pollUntil(
  what: string,
  check: () => Promise<boolean>,
  timeoutMs = 15_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown = null;
  const holds = () =>
    check().catch((error: unknown) => {
      lastError = error;
      return false;
    });
  while (!(await holds())) {
    if (Date.now() > deadline) {
      const reason = lastError instanceof Error ? ` (last: ${lastError.message})` : "";
      throw new Error(`${what}: not seen within ${timeoutMs} ms${reason}`);
    }
    await new Promise((done) => setTimeout(done, 25));
  }
}
