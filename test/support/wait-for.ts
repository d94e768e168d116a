/** Poll `probe` until it returns a truthy value or the time runs out (integration tests only). */
export async function waitFor<T>(
  probe: () => T | Promise<T>,
  { timeoutMs = 15_000, intervalMs = 20, what = 'condition' } = {},
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value) return value as NonNullable<T>;
      last = value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline)
      throw new Error(
        `timed out after ${timeoutMs} ms waiting for ${what}; last: ${last instanceof Error ? last.message : JSON.stringify(last)}`,
      );
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
