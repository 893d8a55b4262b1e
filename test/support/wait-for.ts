/** Polls until the predicate holds, failing with what was awaited after the timeout. */
export async function waitFor(what: string, predicate: () => Promise<boolean> | boolean, timeoutMs = 60_000, intervalMs = 150): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await predicate())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
