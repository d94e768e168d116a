import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { editDistance, nearMiss } from '../../src/config/check-keys.js';
import { loadConfigDetailed, parseConfigTextDetailed } from '../../src/config/load-config.js';
import { parseConfigDetailed } from '../../src/config/parse-config.js';
import type { ConfigError } from '../../src/errors.js';
import { useTempDirs } from '../support/temp-dir.js';

const tempDir = useTempDirs('bnity-strict-');
const FILE = '/x/boternity.json';

function refusal(raw: unknown): ConfigError {
  try {
    parseConfigDetailed(raw, FILE, {});
  } catch (error) {
    return error as ConfigError;
  }
  throw new Error('expected the config to be refused');
}

describe('strict keys', () => {
  it('names a near miss of a server key and the key meant', () => {
    const error = refusal({ mcpServers: { memory: { command: 'node', enabeld: false } } });
    expect(error.message).toBe(
      `${FILE}: invalid config\n  mcpServers.memory.enabeld: unknown key; did you mean "enabled"?`,
    );
    expect(error.issues).toEqual([
      { server: 'memory', field: 'enabeld', message: 'unknown key; did you mean "enabled"?' },
    ]);
  });

  it('refuses the top-level "mcpServer" typo instead of reading a file with no servers', () => {
    const error = refusal({ mcpServer: { memory: { command: 'node' } } });
    expect(error.message).toBe(`${FILE}: invalid config\n  mcpServer: unknown key; did you mean "mcpServers"?`);
  });

  it.each([
    ['comand', 'command'],
    ['Args', 'args'],
    ['allowedTool', 'allowedTools'],
    ['hedaers', 'headers'],
    ['credentialkey', 'credentialKey'],
  ])('takes %s for %s', (typo, meant) => {
    const error = refusal({ mcpServers: { s: { command: 'node', [typo]: [] } } });
    expect(error.issues[0]?.message).toBe(`unknown key; did you mean "${meant}"?`);
  });

  it("checks a bot's keys the same way", () => {
    const error = refusal({ mcpServers: {}, bots: { scout: { removedServer: ['a'] } } });
    expect(error.message).toContain('bots.scout.removedServer: unknown key; did you mean "removedServers"?');
    const parsed = parseConfigDetailed({ mcpServers: {}, bots: { scout: { colour: 'red' } } }, FILE, {});
    expect(parsed.warnings).toEqual([{ path: ['bots', 'scout', 'colour'], message: 'unknown key, kept but not used' }]);
  });

  it('checks the keys inside sections the same way: a near miss refused, any other kept and reported', () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ gateway: { maxSesions: 5 } }, 'gateway.maxSesions: unknown key; did you mean "maxSessions"?'],
      [{ logs: { stderrLine: 5 } }, 'logs.stderrLine: unknown key; did you mean "stderrLines"?'],
      [
        { limits: { perClient: { request: 5, perSeconds: 1 } } },
        'limits.perClient.request: unknown key; did you mean "requests"?',
      ],
      [
        { mcpServers: { s: { command: 'node', backoff: { baseMz: 5 } } } },
        'mcpServers.s.backoff.baseMz: unknown key; did you mean "baseMs"?',
      ],
      [
        { mcpServers: { s: { command: 'node', toolOverrides: { t: { hiden: true } } } } },
        'mcpServers.s.toolOverrides.t.hiden: unknown key; did you mean "hidden"?',
      ],
    ];
    for (const [raw, message] of cases) expect(refusal({ mcpServers: {}, ...raw }).message).toContain(message);
    const parsed = parseConfigDetailed(
      {
        mcpServers: { s: { command: 'node', backoff: { baseMs: 50, fromTheFuture: 1 } } },
        gateway: { maxSessions: 7, newerSetting: true },
        bots: { b: { toolPermissions: { s: { allowed: ['x'], note: 'why' } } } },
        // Not a schema: an unknown key like any other.
        sanitize: { constructor: {} },
      },
      FILE,
      {},
    );
    expect(parsed.config.gateway.maxSessions).toBe(7);
    expect(parsed.config.mcpServers.s?.backoff.baseMs).toBe(50);
    expect(parsed.warnings).toEqual([
      { path: ['mcpServers', 's', 'backoff', 'fromTheFuture'], message: 'unknown key, kept but not used' },
      { path: ['gateway', 'newerSetting'], message: 'unknown key, kept but not used' },
      { path: ['bots', 'b', 'toolPermissions', 's', 'note'], message: 'unknown key, kept but not used' },
      { path: ['sanitize', 'constructor'], message: 'unknown key, kept but not used' },
    ]);
  });

  it('keeps any other unknown key and reports it once as a warning', () => {
    const parsed = parseConfigDetailed(
      { mcpServers: { s: { command: 'node', myNotes: 'hi' } }, someOtherTool: { x: 1 }, $schema: 'x' },
      FILE,
      {},
    );
    expect(parsed.config.mcpServers.s).toMatchObject({ command: 'node' });
    expect(parsed.warnings).toEqual([
      { path: ['someOtherTool'], message: 'unknown key, kept but not used' },
      { path: ['mcpServers', 's', 'myNotes'], message: 'unknown key, kept but not used' },
    ]);
  });

  it('does not interpolate an unknown key (it is not read)', () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: config syntax under test
    const parsed = parseConfigDetailed({ mcpServers: {}, other: '${env:NOT_SET}' }, FILE, {});
    expect(parsed.config.mcpServers).toEqual({});
  });

  it('measures typos as edits, a swap counting as one', () => {
    expect(editDistance('enabeld', 'enabled')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(nearMiss('enviroment', ['env', 'environment'])).toBe('environment');
    expect(nearMiss('zzz', ['env', 'args'])).toBeNull();
  });
});

describe("other clients' keys", () => {
  it("understands Cline's disabled and timeout, and keeps autoApprove without a warning", () => {
    const parsed = parseConfigDetailed(
      {
        mcpServers: {
          off: { command: 'node', disabled: true, autoApprove: ['read'], timeout: 90 },
          on: { command: 'node', disabled: false },
        },
      },
      FILE,
      {},
    );
    expect(parsed.config.mcpServers.off).toMatchObject({ enabled: false, requestTimeoutMs: 90_000 });
    expect(parsed.config.mcpServers.on?.enabled).toBe(true);
    expect(parsed.warnings).toEqual([]);
  });

  it('refuses a disabled that contradicts enabled, and wrong types', () => {
    const error = refusal({
      mcpServers: { a: { command: 'node', enabled: true, disabled: true }, b: { command: 'node', timeout: 'x' } },
    });
    expect(error.issues).toEqual([
      { server: 'a', field: 'disabled', message: 'contradicts "enabled": keep one of them' },
      { server: 'b', field: 'timeout', message: 'expected a number of seconds > 0, got string "x"' },
    ]);
  });

  it("reads VS Code's envFile relative to the workspace; the entry's own env wins", async () => {
    const workspace = await tempDir();
    const vscode = join(workspace, '.vscode');
    await mkdir(vscode);
    await writeFile(join(workspace, '.env'), '# comment\nexport A=1\nB="two words"\nC=3\n');
    const file = join(vscode, 'mcp.json');
    await writeFile(
      file,
      // biome-ignore lint/suspicious/noTemplateCurlyInString: VS Code's variable syntax under test
      '{"servers": {"s": {"type": "stdio", "command": "node", "envFile": "${workspaceFolder}/.env", "env": {"C": "mine"}}}}',
    );
    const parsed = await loadConfigDetailed(file, {});
    expect(parsed.config.mcpServers.s).toMatchObject({ env: { A: '1', B: 'two words', C: 'mine' } });
    await writeFile(file, '{"servers": {"s": {"command": "node", "envFile": "missing.env"}}}');
    await expect(loadConfigDetailed(file, {})).rejects.toThrow(
      `servers.s.envFile: cannot read ${join(vscode, 'missing.env')}: file not found`,
    );
  });
});

describe("VS Code's and Cursor's files", () => {
  it("reads VS Code's mcp.json unchanged: servers, type, comments, trailing commas, inputs", () => {
    const text = `{
  // VS Code's own file
  "inputs": [{ "type": "promptString", "id": "key", "description": "API key", "password": true }],
  "servers": {
    "local": { "type": "stdio", "command": "node", "args": ["server.js"], },
    "remote": { "type": "http", "url": "https://example.com/mcp", "headers": { "X-Key": "k" } },
    "legacy": { "type": "sse", "url": "https://example.com/sse" }, /* trailing comma next */
  },
}
`;
    const parsed = parseConfigTextDetailed(text, FILE, {});
    expect(parsed.config.mcpServers).toMatchObject({
      local: { transport: 'stdio', command: 'node', args: ['server.js'] },
      remote: { transport: 'http', url: 'https://example.com/mcp', headers: { 'X-Key': 'k' } },
      legacy: { transport: 'sse' },
    });
    expect(parsed.warnings).toEqual([]);
    expect(parsed.declaresServers).toBe(true);
  });

  it('names the path as the file writes it', () => {
    expect(() => parseConfigTextDetailed('{"servers": {"x": {"type": "stdio"}}}', FILE, {})).toThrow(
      'servers.x.command: is required',
    );
  });

  it('refuses a file with both mcpServers and servers', () => {
    const error = refusal({ mcpServers: {}, servers: {} });
    expect(error.message).toContain('servers: the file has both "mcpServers" and "servers" (VS Code): keep one');
  });

  it("reads Cursor's file (command or url with headers)", () => {
    const parsed = parseConfigDetailed(
      {
        mcpServers: {
          a: { command: 'npx', args: ['-y', 'x'], env: { K: 'v' } },
          b: { url: 'http://localhost:3000/mcp', headers: { Authorization: 'Bearer t' } },
        },
      },
      FILE,
      {},
    );
    expect(parsed.config.mcpServers.b).toMatchObject({ transport: 'auto', headers: { Authorization: 'Bearer t' } });
    expect(parsed.warnings).toEqual([]);
  });

  it('tells a file that names its servers from one that does not', () => {
    expect(parseConfigDetailed({ mcpServers: {} }, FILE, {}).declaresServers).toBe(true);
    expect(parseConfigDetailed({ bots: {} }, FILE, {}).declaresServers).toBe(false);
  });
});
