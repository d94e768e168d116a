import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest();

/**
 * A constant-time comparison with `expected` (hashing first makes lengths equal); the
 * expected secret is hashed once, not on every check.
 */
export function secretMatcher(expected: string): (given: string) => boolean {
  const want = digest(expected);
  return (given) => timingSafeEqual(digest(given), want) && given.length === expected.length;
}
