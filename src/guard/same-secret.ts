import { hash, timingSafeEqual } from 'node:crypto';

const digest = (value: string): Buffer => hash('sha256', value, 'buffer');

/** Compare two secrets in constant time (hashing first makes lengths equal). */
export function sameSecret(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected)) && given.length === expected.length;
}

/**
 * {@link sameSecret} against one `expected` secret, for the check made on every request
 * (the admin token): no hashing (ADR 015 §10). The given secret's bytes are written over a
 * buffer of the expected one's length and compared in constant time, so the time taken
 * depends on the given secret and the expected one's length only; the string comparison
 * after it runs only when every byte matched.
 */
export function secretMatcher(expected: string): (given: string) => boolean {
  const want = Buffer.from(expected, 'utf8');
  const got = Buffer.alloc(want.length);
  return (given) => {
    got.fill(0);
    got.write(given, 'utf8');
    return timingSafeEqual(got, want) && given === expected;
  };
}
