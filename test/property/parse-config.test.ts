// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${env:VAR}` is config syntax under test, not a template
/**
 * The config parser (SPEC C1, C2) as properties: any JSON gives a config or a ConfigError,
 * never another exception; every issue is one line naming where it is; a generated valid
 * config parses and keeps every server as written.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/parse-config.js';
import { ConfigError } from '../../src/errors.js';

const ENV = { HOME: '/home/test', TOKEN: 'secret' };
const key = fc.oneof(
  fc.constantFrom('mcpServers', 'bots', 'limits', 'logs', 'shutdown', 'http', 'audit', 'pins', 'sanitize', 'gateway'),
  fc.constantFrom(
    'command',
    'args',
    'env',
    'url',
    'type',
    'headers',
    'enabled',
    'preset',
    'backoff',
    'enabeld',
    'constructor',
    '__proto__',
  ),
  fc.string({ unit: 'binary', maxLength: 12 }),
);
const scalar = fc.oneof(
  fc.constantFrom(
    'stdio',
    'http',
    'sse',
    'websocket',
    'http://127.0.0.1:1/mcp',
    '${env:TOKEN}',
    '${env:NOPE}',
    '${env:',
  ),
  fc.string({ unit: 'binary', maxLength: 16 }),
  fc.double(),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
);
/** JSON shaped like a config often enough to reach the deep checks. */
const configish = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(key, tie('value'), { maxKeys: 5 }),
  ),
})).value;
const anyJson = fc.oneof(fc.jsonValue(), configish, fc.dictionary(key, configish, { maxKeys: 6 }));

/** Whatever a parse throws, as a ConfigError (failing the property otherwise). */
function parseOrError(raw: unknown): ConfigError | null {
  try {
    parseConfig(raw, 'boternity.json', ENV);
    return null;
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
}

const serverName = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,47}$/);
const plain = fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 20 }).filter((s) => !s.includes('$'));
const stdio = fc.record({ command: plain, args: fc.array(plain, { maxLength: 4 }) });
const remote = fc.record({
  url: fc
    .tuple(
      fc.constantFrom('http', 'https'),
      fc.integer({ min: 1, max: 65_535 }),
      fc.stringMatching(/^[a-z0-9/]{0,12}$/),
    )
    .map(([scheme, port, path]) => `${scheme}://127.0.0.1:${port}/${path}`),
  type: fc.constantFrom('http', 'sse', 'auto', 'streamable-http'),
});

describe('parseConfig (property)', () => {
  it('throws nothing but a ConfigError whose issues each name a place, one line each', () => {
    fc.assert(
      fc.property(anyJson, (raw) => {
        const error = parseOrError(raw);
        if (!error) return;
        expect(error.issues.length).toBeGreaterThan(0);
        const rootIsObject = typeof raw === 'object' && raw !== null && !Array.isArray(raw);
        for (const issue of error.issues) {
          // Only a file that is not an object at all is a problem of the root itself.
          if (rootIsObject) expect(issue.server !== null || issue.field !== '').toBe(true);
          expect(issue.message).not.toMatch(/[\r\n]/);
        }
        expect(error.message.split('\n')).toHaveLength(error.issues.length + 1);
      }),
      { numRuns: 500 },
    );
  });

  it('parses a valid generated config and keeps every server as written', () => {
    fc.assert(
      fc.property(fc.dictionary(serverName, fc.oneof(stdio, remote), { maxKeys: 8 }), (servers) => {
        const config = parseConfig({ mcpServers: servers, unknownKey: true }, 'boternity.json', ENV);
        expect(Object.keys(config.mcpServers).sort()).toEqual(Object.keys(servers).sort());
        for (const [name, entry] of Object.entries(servers)) {
          const parsed = config.mcpServers[name];
          if ('command' in entry) {
            expect(parsed).toMatchObject({ transport: 'stdio', command: entry.command, args: entry.args });
          } else {
            const transport = entry.type === 'streamable-http' ? 'http' : entry.type;
            expect(parsed).toMatchObject({ transport, url: entry.url });
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});
