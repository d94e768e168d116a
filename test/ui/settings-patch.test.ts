// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${secret:NAME}` is config syntax under test, not a template
import { describe, expect, it } from 'vitest';
import type { Server } from '../../src/ui/api-types.js';
import { fieldOfIssue, MASKED, settingsPatch, settingsValues } from '../../src/ui/settings-patch.js';

const stdio = {
  name: 'fs',
  type: 'stdio',
  command: 'node',
  args: ['server.js', '--api-key', MASKED],
  env: { API_KEY: MASKED, GH: '${secret:gh}' },
  enabled: true,
  healthIntervalMs: 30000,
  requestTimeoutMs: 60000,
  backoff: { baseMs: 500, factor: 2, capMs: 30000, jitter: 0.2, resetAfterMs: 10000 },
  samplingBudgetTokens: null,
} as unknown as Server;
const remote = {
  name: 'web',
  type: 'http',
  url: `https://u:${MASKED}@example.com/mcp`,
  headers: { Authorization: MASKED },
  enabled: true,
  samplingBudgetTokens: null,
} as unknown as Server;
const edit = (server: Server, changes: Record<string, string>) =>
  settingsPatch(server, { ...settingsValues(server), ...changes });

describe('settingsPatch', () => {
  it('sends nothing when nothing changed: no masked value goes back', () => {
    expect(edit(stdio, {})).toEqual({ patch: {}, errors: {} });
    expect(edit(remote, {})).toEqual({ patch: {}, errors: {} });
  });

  it('sends only the fields changed; env whole, with its masked values as shown (the API keeps them)', () => {
    const values = settingsValues(stdio);
    expect(values.env).toBe(`API_KEY=${MASKED}\nGH=\${secret:gh}`);
    expect(edit(stdio, { env: `${values.env}\nMODE=fast`, requestTimeoutMs: '5000', cwd: '/tmp' }).patch).toEqual({
      env: { API_KEY: MASKED, GH: '${secret:gh}', MODE: 'fast' },
      requestTimeoutMs: 5000,
      cwd: '/tmp',
    });
  });

  it('refuses changed arguments or a changed URL that still hold a hidden part, naming the field', () => {
    expect(edit(stdio, { args: `server.js\n--api-key\n${MASKED}\n--verbose` }).errors).toEqual({
      args: `argument 3 has a hidden part (${MASKED}): type it in full, or undo the change`,
    });
    expect(edit(remote, { url: `https://u:${MASKED}@example.com/v2` }).errors.url).toMatch(/hidden part/);
    expect(edit(stdio, { args: 'server.js\n--api-key\nnew' }).patch).toEqual({
      args: ['server.js', '--api-key', 'new'],
    });
  });

  it('gives numbers as numbers, other text as is for the API to judge, and an empty field as null (its default)', () => {
    expect(edit(stdio, { healthIntervalMs: '-1', requestTimeoutMs: 'soon', 'backoff.maxAttempts': '3' }).patch).toEqual(
      {
        healthIntervalMs: -1,
        requestTimeoutMs: 'soon',
        backoff: { baseMs: 500, factor: 2, capMs: 30000, jitter: 0.2, resetAfterMs: 10000, maxAttempts: 3 },
      },
    );
    expect(edit(stdio, { healthIntervalMs: '' }).patch).toEqual({ healthIntervalMs: null });
  });

  it("switches the transport: the new one's fields, the old one's removed", () => {
    expect(edit(stdio, { type: 'sse', url: 'http://127.0.0.1:1/sse' }).patch).toEqual({
      type: 'sse',
      url: 'http://127.0.0.1:1/sse',
      credentialKey: null,
      headers: null,
      command: null,
      args: null,
      env: null,
      cwd: null,
    });
    expect(edit(remote, { type: 'auto' }).patch).toEqual({ type: 'auto' });
  });

  it('edits the tool lists: every tool (no list), only some, none denied', () => {
    expect(edit(stdio, { allowAll: 'false', allowedTools: 'read\nlist' }).patch).toEqual({
      allowedTools: ['read', 'list'],
    });
    const limited = { ...stdio, allowedTools: ['read'], deniedTools: ['write'] } as Server;
    expect(edit(limited, { allowAll: 'true', deniedTools: '' }).patch).toEqual({
      allowedTools: null,
      deniedTools: null,
    });
  });

  it('gives a preset entry its own command with changed arguments, so the preset does not add its own again', () => {
    const preset = { ...stdio, preset: 'filesystem', args: ['/srv'] } as Server;
    expect(edit(preset, { args: '/srv\n/data' }).patch).toEqual({ command: 'node', args: ['/srv', '/data'] });
  });
});

describe('fieldOfIssue', () => {
  it('names the form field of an issue of the request or of the config file', () => {
    expect(fieldOfIssue('healthIntervalMs')).toBe('healthIntervalMs');
    expect(fieldOfIssue('args.0')).toBe('args');
    expect(fieldOfIssue('backoff.baseMs')).toBe('backoff.baseMs');
    expect(fieldOfIssue('mcpServers.fs.url')).toBe('url');
    expect(fieldOfIssue('mcpServers.fs.args[1]')).toBe('args');
    expect(fieldOfIssue('mcpServers.fs.headers.X-Y')).toBe('headers');
    expect(fieldOfIssue('mcpServers.fs.backoff.capMs')).toBe('backoff.capMs');
  });
});
