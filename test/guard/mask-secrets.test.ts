import { describe, expect, it } from 'vitest';
import { looksSecret, MASKED, maskArgs, maskConfig, maskServerEntry, maskUrl } from '../../src/guard/mask-secrets.js';

describe('mask-secrets', () => {
  it('tells secret-looking names from others', () => {
    for (const name of [
      'token',
      'GITHUB_TOKEN',
      '--api-key',
      'apiKey',
      'X-API-Key',
      'password',
      'client_secret',
      'Authorization',
    ])
      expect(looksSecret(name), name).toBe(true);
    for (const name of ['credentialKey', 'samplingBudgetTokens', 'sessionIdleMs', 'keyboard', 'path', 'monkey'])
      expect(looksSecret(name), name).toBe(false);
  });

  it('masks URL passwords and secret query values, and leaves other text alone', () => {
    expect(maskUrl('postgresql://app:s3cret@db:5432/app')).toBe(`postgresql://app:${MASKED}@db:5432/app`);
    expect(maskUrl('https://x.test/mcp?token=abc&page=2')).toBe(`https://x.test/mcp?token=${MASKED}&page=2`);
    expect(maskUrl('https://x.test/mcp')).toBe('https://x.test/mcp');
    expect(maskUrl('/srv/files')).toBe('/srv/files');
    expect(maskUrl('mailto:a@b.c')).toBe('mailto:a@b.c');
  });

  it('masks the value of a secret flag, in either form', () => {
    expect(maskArgs(['--token', 'abc', '--dir', '/x', '--api-key=k', 'postgres://u:p@h/d'])).toEqual([
      '--token',
      MASKED,
      '--dir',
      '/x',
      `--api-key=${MASKED}`,
      `postgres://u:${MASKED}@h/d`,
    ]);
  });

  it('masks every env and header value of a server entry', () => {
    expect(maskServerEntry({ command: 'x', env: { A: '1' }, headers: { H: 'v' }, credentialKey: 'gh' })).toEqual({
      command: 'x',
      env: { A: MASKED },
      headers: { H: MASKED },
      credentialKey: 'gh',
    });
  });

  it('shows an env value that is only a secret reference as it is (the keystore keeps the secret)', () => {
    expect(
      // biome-ignore lint/suspicious/noTemplateCurlyInString: config syntax under test
      maskServerEntry({ command: 'x', env: { A: '${secret:gh}', B: 'x ${secret:gh}', C: '$${secret:gh}' } }).env,
      // biome-ignore lint/suspicious/noTemplateCurlyInString: config syntax under test
    ).toEqual({ A: '${secret:gh}', B: MASKED, C: MASKED });
  });

  it('masks servers and secret-looking keys anywhere in a config', () => {
    expect(
      maskConfig({
        mcpServers: { s: { url: 'https://u:p@h/x', env: { K: 'v' } } },
        other: { nested: { password: 'p', name: 'n', budgetTokens: 5 } },
      }),
    ).toEqual({
      mcpServers: { s: { url: `https://u:${MASKED}@h/x`, env: { K: MASKED } } },
      other: { nested: { password: MASKED, name: 'n', budgetTokens: 5 } },
    });
  });
});
