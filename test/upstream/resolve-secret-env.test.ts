// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${secret:NAME}` and `${env:VAR}` are config syntax under test, not templates
/**
 * `${secret:NAME}` in a stdio env is read from the keystore at connect (issue 18 item 6): the
 * values are replaced, `$${secret:…}` is the literal text, and a missing entry fails the
 * connect naming the entry (never a value).
 */
import { describe, expect, it } from 'vitest';
import { moveSecretEnv } from '../../src/config/move-secret-env.js';
import { parseConfig } from '../../src/config/parse-config.js';
import type { StdioServerConfig } from '../../src/config/schema.js';
import { hasSecretEnv, resolveSecretEnv } from '../../src/upstream/resolve-secret-env.js';

const stdio = (env: Record<string, string>) =>
  parseConfig({ mcpServers: { s: { command: 'node', env } } }, null).mcpServers.s as StdioServerConfig;
const keystore = (entries: Record<string, string>) => ({ get: async (name: string) => entries[name] ?? null });

describe('resolveSecretEnv', () => {
  it('replaces references with the secrets, keeps other values and the escaped form', async () => {
    const config = stdio({
      API_TOKEN: '${secret:s.API_TOKEN}',
      AUTH: 'Bearer ${secret:s.API_TOKEN}',
      RAW: '$${secret:x}',
      N: '1',
    });
    expect(hasSecretEnv(config)).toBe(true);
    expect(hasSecretEnv(stdio({ N: '1' }))).toBe(false);
    const resolved = await resolveSecretEnv(config, keystore({ 's.API_TOKEN': 'tok' }));
    expect(resolved.env).toEqual({ API_TOKEN: 'tok', AUTH: 'Bearer tok', RAW: '${secret:x}', N: '1' });
    // The config given is left as it was.
    expect(config.env.API_TOKEN).toBe('${secret:s.API_TOKEN}');
  });

  it('fails the connect with one line naming a missing entry, never a value', async () => {
    const config = stdio({ API_TOKEN: '${secret:s.API_TOKEN}', OTHER: '${secret:present}' });
    await expect(resolveSecretEnv(config, keystore({ present: 'the-value' }))).rejects.toThrow(
      /^credential "s\.API_TOKEN" is not in the keystore: run 'bnity mcp credential set s\.API_TOKEN'$/,
    );
    await expect(resolveSecretEnv(config, undefined)).rejects.toThrow(/no keystore is available/);
  });
});

describe('moveSecretEnv', () => {
  it('moves values whose names look secret (any case), and no reference, empty or plain value', () => {
    const { servers, moved } = moveSecretEnv({
      a: {
        command: 'x',
        env: {
          MY_TOKEN: 't',
          apiKey: 'k',
          Secret: 's',
          PASSWORD: 'p',
          PATH: '/bin',
          EMPTY_KEY: '',
          REF_KEY: '${env:K}',
        },
      },
      b: { command: 'y' },
    });
    expect(moved.map((m) => m.variable)).toEqual(['MY_TOKEN', 'apiKey', 'Secret', 'PASSWORD']);
    expect(servers.a?.env).toEqual({
      MY_TOKEN: '${secret:a.MY_TOKEN}',
      apiKey: '${secret:a.apiKey}',
      Secret: '${secret:a.Secret}',
      PASSWORD: '${secret:a.PASSWORD}',
      PATH: '/bin',
      EMPTY_KEY: '',
      REF_KEY: '${env:K}',
    });
    expect(servers.b).toEqual({ command: 'y' });
  });
});
