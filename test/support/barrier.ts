/**
 * A barrier for tests that need work in flight together, without sleeping: each party
 * `arrive()`s and waits until `expected` parties have arrived.
 * @module
 */

/** A barrier for `expected` parties. */
export function createBarrier(expected: number): { arrive(): Promise<void> } {
  let release: () => void = () => undefined;
  const open = new Promise<void>((resolve) => {
    release = resolve;
  });
  let arrived = 0;
  return {
    arrive() {
      arrived += 1;
      if (arrived >= expected) release();
      return open;
    },
  };
}
