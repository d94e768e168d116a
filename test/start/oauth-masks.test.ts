/**
 * The log's masks of OAuth records (SPEC X6's "secrets never logged"): a record's JSON, its
 * tokens and client secret are masked when read or written; when the record is written anew
 * (a refresh), the old token's masks go — the set grew at every refresh for good — while a
 * value another record still holds stays masked.
 */
import { describe, expect, it } from 'vitest';
import { createOAuthMasks } from '../../src/start/oauth-masks.js';

const record = (access: string, refresh: string, clientSecret = 'client-secret-shared-1') =>
  JSON.stringify({ tokens: { access_token: access, refresh_token: refresh }, client: { client_secret: clientSecret } });

describe('the OAuth records masked in the log', () => {
  it("replaces a record name's masks when it is written anew, keeping what another record holds", () => {
    const secrets = new Set<string>(['an-unrelated-secret']);
    const mask = createOAuthMasks(secrets);
    const first = record('access-token-0001', 'refresh-token-0001');
    mask('oauth.linear', first);
    mask('oauth.github', record('access-token-gh01', 'refresh-token-gh01'));
    expect(secrets).toEqual(
      new Set([
        'an-unrelated-secret',
        first,
        'access-token-0001',
        'refresh-token-0001',
        'client-secret-shared-1',
        record('access-token-gh01', 'refresh-token-gh01'),
        'access-token-gh01',
        'refresh-token-gh01',
      ]),
    );
    // A hundred refreshes of linear: its masks are the latest record's, not a hundred records'.
    for (let i = 2; i <= 100; i++)
      mask('oauth.linear', record(`access-token-${i}`.padEnd(17, '0'), 'refresh-token-0001'));
    expect(secrets.size).toBe(8);
    expect(secrets.has('access-token-0001')).toBe(false);
    expect(secrets.has(first)).toBe(false);
    // The refresh token that did not rotate, and the client secret github's record shares, stay.
    expect(secrets.has('refresh-token-0001')).toBe(true);
    expect(secrets.has('client-secret-shared-1')).toBe(true);
    expect(secrets.has('an-unrelated-secret')).toBe(true);
  });
});
