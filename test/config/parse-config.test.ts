// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${env:VAR}` is config syntax under test, not a template
import { existsSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/parse-config.js';
import { ConfigError } from '../../src/errors.js';

const FILE = '/x/boternity.json';

/** The ConfigError thrown by parseConfig, so its fields can be checked. */
function configError(raw: unknown, env: NodeJS.ProcessEnv = {}): ConfigError {
  try {
    parseConfig(raw, FILE, env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error('expected parseConfig to throw');
}

describe('parseConfig: valid files', () => {
  it('reads a Claude Desktop / Cursor / VS Code file unchanged', () => {
    const config = parseConfig(
      {
        mcpServers: {
          files: { command: 'npx', args: ['-y', 'pkg', '/tmp'], env: { A: '1' }, cwd: '/srv' },
          remote: { type: 'http', url: 'https://mcp.example.com/mcp', headers: { 'X-Key': 'k' } },
          legacy: { type: 'sse', url: 'http://localhost:3001/sse' },
          cursor: { url: 'https://cursor.example.com/mcp' },
          vscode: { type: 'stdio', command: 'uvx', args: ['mcp-server-git'] },
        },
      },
      FILE,
      {},
    );
    const { files, remote, legacy, cursor, vscode } = config.mcpServers;
    expect(files).toMatchObject({
      transport: 'stdio',
      command: 'npx',
      args: ['-y', 'pkg', '/tmp'],
      env: { A: '1' },
      cwd: '/srv',
    });
    expect(remote).toMatchObject({
      transport: 'http',
      type: 'http',
      url: 'https://mcp.example.com/mcp',
      headers: { 'X-Key': 'k' },
    });
    expect(legacy).toMatchObject({ transport: 'sse', type: 'sse', url: 'http://localhost:3001/sse', headers: {} });
    expect(cursor).toMatchObject({ transport: 'auto', type: 'auto' });
    expect(vscode).toMatchObject({ transport: 'stdio', command: 'uvx', args: ['mcp-server-git'], env: {} });
  });

  it('accepts streamable-http and streamableHttp as http', () => {
    const config = parseConfig(
      {
        mcpServers: {
          a: { type: 'streamable-http', url: 'http://a/mcp' },
          b: { type: 'streamableHttp', url: 'http://b/mcp' },
        },
      },
      FILE,
      {},
    );
    expect(config.mcpServers.a?.transport).toBe('http');
    expect(config.mcpServers.b?.transport).toBe('http');
  });

  it('applies defaults from the schema', () => {
    const config = parseConfig({ mcpServers: { s: { command: 'node' } } }, FILE, {});
    expect(config.mcpServers.s).toMatchObject({
      enabled: true,
      args: [],
      env: {},
      healthIntervalMs: 30_000,
      backoff: { baseMs: 500, factor: 2, capMs: 30_000 },
    });
    expect(config).toMatchObject({ bots: {}, limits: {}, logs: { stderrLines: 500 }, shutdown: { graceMs: 3_000 } });
  });

  it('keeps boternity fields and bots', () => {
    const config = parseConfig(
      {
        mcpServers: {
          s: {
            command: 'node',
            enabled: false,
            allowedTools: ['a'],
            backoff: { baseMs: 100 },
            healthIntervalMs: 5_000,
          },
        },
        bots: { helper: { toolPermissions: { s: { allowed: ['a'], denied: ['b'] } } } },
        limits: { perClient: { requests: 10, perSeconds: 1 } },
      },
      FILE,
      {},
    );
    expect(config.mcpServers.s).toMatchObject({
      enabled: false,
      allowedTools: ['a'],
      healthIntervalMs: 5_000,
      backoff: { baseMs: 100, factor: 2 },
    });
    expect(config.bots.helper?.toolPermissions.s).toEqual({ allowed: ['a'], denied: ['b'] });
    expect(config.limits.perClient).toEqual({ requests: 10, perSeconds: 1 });
  });

  it('accepts a file with only {} and a missing mcpServers', () => {
    expect(parseConfig({}, FILE, {}).mcpServers).toEqual({});
  });

  it('tolerates unknown keys at the top level and per server, and drops them', () => {
    const config = parseConfig(
      {
        $schema: 'x',
        globalShortcut: 'Ctrl+Space',
        mcpServers: { s: { command: 'node', autoApprove: ['x'], disabled: false } },
      },
      FILE,
      {},
    );
    expect(config).not.toHaveProperty('globalShortcut');
    expect(config.mcpServers.s).not.toHaveProperty('autoApprove');
  });

  it('interpolates ${env:VAR} in servers and other sections', () => {
    const config = parseConfig(
      {
        mcpServers: {
          gh: { url: 'https://${env:HOST}/mcp', headers: { Authorization: 'Bearer ${env:GITHUB_TOKEN}' } },
          s: { command: 'node', args: ['${env:HOST}'], env: { TOKEN: '${env:GITHUB_TOKEN}' } },
        },
        bots: { b: { description: 'on ${env:HOST}' } },
      },
      FILE,
      { HOST: 'example.com', GITHUB_TOKEN: 'ghp_1' },
    );
    expect(config.mcpServers.gh).toMatchObject({
      url: 'https://example.com/mcp',
      headers: { Authorization: 'Bearer ghp_1' },
    });
    expect(config.mcpServers.s).toMatchObject({ args: ['example.com'], env: { TOKEN: 'ghp_1' } });
    expect(config.bots.b?.description).toBe('on example.com');
  });
});

describe('parseConfig: presets', () => {
  it('resolves a preset entry to an absolute command, appending args and merging env', () => {
    const config = parseConfig(
      { mcpServers: { fs: { preset: 'filesystem', args: ['/data'], env: { X: '1' } }, mem: { preset: 'memory' } } },
      FILE,
      {},
    );
    const fs = config.mcpServers.fs;
    if (fs?.transport !== 'stdio') throw new Error('expected stdio');
    expect(fs.command).toBe(process.execPath);
    expect(fs.args).toHaveLength(2);
    expect(isAbsolute(fs.args[0] ?? '')).toBe(true);
    expect(existsSync(fs.args[0] ?? '')).toBe(true);
    expect(fs.args[1]).toBe('/data');
    expect(fs.env).toEqual({ X: '1' });
    expect(fs.preset).toBe('filesystem');
    expect(config.mcpServers.mem?.transport).toBe('stdio');
  });

  it('lets an explicit command win over the preset', () => {
    const config = parseConfig({ mcpServers: { m: { preset: 'memory', command: 'my-memory' } } }, FILE, {});
    expect(config.mcpServers.m).toMatchObject({ command: 'my-memory', args: [] });
  });

  it('needs the variables a preset references, unless the entry sets them', () => {
    const error = configError({ mcpServers: { brave: { preset: 'brave-search' } } });
    expect(error.issues).toEqual([
      { server: 'brave', field: 'env.BRAVE_API_KEY', message: 'environment variable BRAVE_API_KEY is not set' },
    ]);
    const fromEnv = parseConfig({ mcpServers: { brave: { preset: 'brave-search' } } }, FILE, { BRAVE_API_KEY: 't' });
    expect(fromEnv.mcpServers.brave).toMatchObject({ command: 'npx', env: { BRAVE_API_KEY: 't' } });
    const inline = parseConfig(
      { mcpServers: { brave: { preset: 'brave-search', env: { BRAVE_API_KEY: 'u' } } } },
      FILE,
      {},
    );
    expect(inline.mcpServers.brave).toMatchObject({ env: { BRAVE_API_KEY: 'u' } });
  });

  it('expands a remote preset to its URL; the credential comes from the keystore', () => {
    const config = parseConfig({ mcpServers: { gh: { preset: 'github', credentialKey: 'github-token' } } }, FILE, {});
    expect(config.mcpServers.gh).toMatchObject({
      url: 'https://api.githubcopilot.com/mcp/',
      transport: 'http',
      credentialKey: 'github-token',
    });
  });

  it('reports an unknown preset with the known names', () => {
    const error = configError({ mcpServers: { x: { preset: 'nope' } } });
    expect(error.issues).toEqual([
      { server: 'x', field: 'preset', message: expect.stringMatching(/unknown preset "nope" \(known: .*filesystem/) },
    ]);
  });
});
