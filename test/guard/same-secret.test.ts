import { describe, expect, it } from 'vitest';
import { sameSecret, secretMatcher } from '../../src/guard/same-secret.js';

describe('secretMatcher', () => {
  const token = 'bnt_admin_0123456789abcdefghijklmnopqrstuv';
  const matches = secretMatcher(token);

  it('accepts the secret itself, again and again', () => {
    expect(matches(token)).toBe(true);
    expect(matches(`${token}`)).toBe(true);
  });

  it('refuses what only starts or ends like it, is longer, shorter or empty', () => {
    for (const given of [token.slice(0, -1), `${token}x`, token.slice(1), '', 'x', `${token}${token}`]) {
      expect(matches(given), given).toBe(false);
    }
    // A refusal leaves nothing behind for the next check.
    expect(matches(token)).toBe(true);
  });

  it('refuses a different secret whose bytes match (a lone surrogate is written as U+FFFD)', () => {
    const odd = secretMatcher('key\uFFFD');
    expect(odd('key\uD800')).toBe(false);
    expect(odd('key\uFFFD')).toBe(true);
  });

  it('agrees with sameSecret', () => {
    for (const given of [token, `${token}x`, '', 'bnt_']) expect(matches(given)).toBe(sameSecret(given, token));
  });
});
