import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest();

/** Compare two secrets in constant time (hashing first makes lengths equal). */
export function sameSecret(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected)) && given.length === expected.length;
}

/**
 * {@link sameSecret} against one `expected` secret, hashed once rather than on every
 * check (the admin token, compared on every request).
 */
export function secretMatcher(expected: string): (given: string) => boolean {
  const want = digest(expected);
  return (given) => timingSafeEqual(digest(given), want) && given.length === expected.length;
}
