// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${env:VAR}` is config syntax under test, not a template
import { describe, expect, it } from 'vitest';
import { formatConfigIssue } from '../../src/config/config-issues.js';
import { parseConfig } from '../../src/config/parse-config.js';
import { ConfigError, type ConfigIssue } from '../../src/errors.js';

const FILE = '/x/boternity.json';

function configError(raw: unknown, env: NodeJS.ProcessEnv = {}): ConfigError {
  try {
    parseConfig(raw, FILE, env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error('expected parseConfig to throw');
}

/** The single issue of a file with one bad server entry, checked to appear in the message. */
function onlyIssue(entry: unknown, env: NodeJS.ProcessEnv = {}): ConfigIssue {
  const error = configError({ mcpServers: { s: entry } }, env);
  expect(error.code).toBe('config_invalid');
  expect(error.file).toBe(FILE);
  expect(error.issues).toHaveLength(1);
  const issue = error.issues[0] as ConfigIssue;
  expect(error.message).toBe(`${FILE}: invalid config\n  ${formatConfigIssue(issue)}`);
  return issue;
}

describe('parseConfig: each bad input names file, server and field', () => {
  it('unknown transport', () => {
    const issue = onlyIssue({ type: 'websocket', url: 'http://x' });
    expect(issue).toEqual({
      server: 's',
      field: 'type',
      message: 'unknown transport "websocket" (expected stdio, http, sse or auto)',
    });
  });

  it('missing command for a stdio entry', () => {
    expect(onlyIssue({ type: 'stdio', args: [] })).toEqual({
      server: 's',
      field: 'command',
      message: 'is required (expected a string)',
    });
  });

  it('empty command', () => {
    expect(onlyIssue({ command: '' })).toEqual({
      server: 's',
      field: 'command',
      message: 'expected a non-empty string',
    });
  });

  it('neither command nor url', () => {
    expect(onlyIssue({ args: ['x'] })).toEqual({
      server: 's',
      field: '',
      message: 'needs "command" (stdio) or "url" (http/sse)',
    });
  });

  it('both command and url', () => {
    expect(onlyIssue({ command: 'node', url: 'http://x' })).toMatchObject({
      server: 's',
      field: '',
      message: expect.stringContaining('both'),
    });
  });

  it('args not an array', () => {
    expect(onlyIssue({ command: 'node', args: '--flag' })).toEqual({
      server: 's',
      field: 'args',
      message: 'expected an array, got string "--flag"',
    });
  });

  it('a non-string arg, by index', () => {
    expect(onlyIssue({ command: 'node', args: ['ok', 3] })).toMatchObject({ server: 's', field: 'args[1]' });
  });

  it('enabled "yes"', () => {
    expect(onlyIssue({ command: 'node', enabled: 'yes' })).toEqual({
      server: 's',
      field: 'enabled',
      message: 'expected a boolean (true or false), got string "yes"',
    });
  });

  it('negative backoff.factor', () => {
    expect(onlyIssue({ command: 'node', backoff: { factor: -2 } })).toEqual({
      server: 's',
      field: 'backoff.factor',
      message: 'must be >= 1',
    });
  });

  it('a bad URL', () => {
    expect(onlyIssue({ url: 'not a url' })).toEqual({
      server: 's',
      field: 'url',
      message: 'must be an http:// or https:// URL',
    });
    expect(onlyIssue({ type: 'sse', url: 'ftp://host/x' })).toMatchObject({ field: 'url' });
  });

  it('a missing variable in interpolation, once', () => {
    const issue = onlyIssue({ url: '${env:MCP_URL}', headers: { Authorization: 'Bearer x' } });
    expect(issue).toEqual({ server: 's', field: 'url', message: 'environment variable MCP_URL is not set' });
  });

  it('a server entry that is not an object', () => {
    expect(onlyIssue('npx server')).toEqual({
      server: 's',
      field: '',
      message: 'expected an object, got string "npx server"',
    });
  });

  it('a bad server name', () => {
    const error = configError({ mcpServers: { 'my server': { command: 'node' } } });
    expect(error.issues).toEqual([
      { server: 'my server', field: '', message: expect.stringContaining('invalid server name') },
    ]);
    expect(error.message).toContain('mcpServers["my server"]: invalid server name');
  });

  it('mcpServers that is not an object', () => {
    const error = configError({ mcpServers: [] });
    expect(error.issues).toEqual([
      { server: null, field: 'mcpServers', message: expect.stringContaining('got an array') },
    ]);
  });

  it('a file that is not an object', () => {
    expect(configError(null).message).toBe(`${FILE}: invalid config\n  (root): expected a JSON object, got null`);
  });

  it('top-level fields: bot slugs and limits', () => {
    const error = configError({ bots: { 'Bad Bot': {} }, limits: { global: { requests: 0, perSeconds: 1 } } });
    expect(error.issues).toEqual([
      { server: null, field: 'bots["Bad Bot"]', message: expect.stringContaining('bot slugs are lowercase') },
      { server: null, field: 'limits.global.requests', message: 'must be > 0' },
    ]);
  });
});

describe('parseConfig: the audit byte cap', () => {
  it('defaults to 512 MiB, and refuses less than 1 MiB naming the field', () => {
    expect(parseConfig({}, FILE, {}).audit.maxBytes).toBe(512 * 1024 * 1024);
    const error = configError({ audit: { maxBytes: 1000 } });
    expect(error.issues).toEqual([
      { server: null, field: 'audit.maxBytes', message: expect.stringContaining('1048576') },
    ]);
    expect(error.message.split('\n')).toHaveLength(2);
  });
});

describe('parseConfig: several problems', () => {
  it('reports all issues together in one readable message', () => {
    const error = configError(
      {
        mcpServers: {
          ok: { command: 'node' },
          broken: { command: '' },
          web: { type: 'websocket', url: 'http://x' },
          typed: { command: 'node', args: 'x', enabled: 'yes' },
          gh: { url: 'https://api.example.com', headers: { Authorization: '${env:GITHUB_TOKEN}' } },
        },
      },
      {},
    );
    expect(error.message).toBe(
      [
        '/x/boternity.json: invalid config',
        '  mcpServers.broken.command: expected a non-empty string',
        '  mcpServers.web.type: unknown transport "websocket" (expected stdio, http, sse or auto)',
        '  mcpServers.typed.enabled: expected a boolean (true or false), got string "yes"',
        '  mcpServers.typed.args: expected an array, got string "x"',
        '  mcpServers.gh.headers.Authorization: environment variable GITHUB_TOKEN is not set',
      ].join('\n'),
    );
    expect(error.issues.map((issue) => `${issue.server}/${issue.field}`)).toEqual([
      'broken/command',
      'web/type',
      'typed/enabled',
      'typed/args',
      'gh/headers.Authorization',
    ]);
  });

  it('uses a placeholder when there is no file', () => {
    expect(() => parseConfig({ mcpServers: 1 }, null, {})).toThrow(/^\(config\): invalid config\n {2}mcpServers: /);
  });
});

describe('parseConfig: text a child process or a request would refuse forever (issue 17)', () => {
  const NUL = 'must not contain a NUL character (\\u0000)';
  it.each([
    ['command', { command: 'node\u0000' }, 'command', NUL],
    ['an argument', { command: 'node', args: ['a', '\u0000'] }, 'args[1]', NUL],
    ['an env value', { command: 'node', env: { A: 'x\u0000' } }, 'env.A', NUL],
    ['an env name', { command: 'node', env: { 'A\u0000': 'x' } }, 'env["A\\u0000"]', `invalid name: ${NUL}`],
    ['cwd', { command: 'node', cwd: '/srv\u0000' }, 'cwd', NUL],
    ['a header value', { url: 'http://x/mcp', headers: { A: 'a\nb' } }, 'headers.A', 'must not contain NUL, CR or LF'],
    [
      'a header name',
      { url: 'http://x/mcp', headers: { 'A:': 'b' } },
      'headers["A:"]',
      'invalid name: not a valid HTTP header name',
    ],
  ])('%s', (_what, entry, field, message) => {
    expect(onlyIssue(entry)).toEqual({ server: 's', field, message });
  });
});
