// biome-ignore-all lint/suspicious/noTemplateCurlyInString: `${env:VAR}` is config syntax under test, not a template
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.js';
import { findJsonErrorOffset, parseConfigJson } from '../../src/config/parse-config-json.js';
import { ConfigError } from '../../src/errors.js';
import { useTempDirs } from '../support/temp-dir.js';

const tempDir = useTempDirs();

async function rejection(promise: Promise<unknown>): Promise<ConfigError> {
  const error = await promise.then(
    () => null,
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(ConfigError);
  return error as ConfigError;
}

describe('loadConfig', () => {
  it('reads and validates a file', async () => {
    const file = join(await tempDir(), 'boternity.json');
    await writeFile(file, JSON.stringify({ mcpServers: { s: { command: 'node', args: ['${env:ARG}'] } } }));
    const config = await loadConfig(file, { ARG: 'x' });
    expect(config.mcpServers.s).toMatchObject({ transport: 'stdio', command: 'node', args: ['x'] });
  });

  it('ignores a byte order mark', async () => {
    const file = join(await tempDir(), 'boternity.json');
    await writeFile(file, '\uFEFF{"mcpServers": {}}');
    expect((await loadConfig(file, {})).mcpServers).toEqual({});
  });

  it('reports a missing file as config_unreadable with its path', async () => {
    const file = join(await tempDir(), 'missing.json');
    const error = await rejection(loadConfig(file, {}));
    expect(error.code).toBe('config_unreadable');
    expect(error.file).toBe(file);
    expect(error.message).toBe(`${file}: cannot read config: file not found`);
  });

  it('reports a directory as unreadable', async () => {
    const dir = join(await tempDir(), 'boternity.json');
    await mkdir(dir);
    const error = await rejection(loadConfig(dir, {}));
    expect(error.code).toBe('config_unreadable');
    expect(error.message).toContain(dir);
  });

  it('reports bad JSON with the file, line and column', async () => {
    const file = join(await tempDir(), 'boternity.json');
    await writeFile(file, '{\n  "mcpServers": {\n    "a": { "command": "node", },\n  }\n}\n');
    const error = await rejection(loadConfig(file, {}));
    expect(error.code).toBe('config_invalid');
    expect(error.message).toBe(`${file}: invalid JSON at line 3, column 31: expected double-quoted property name`);
    expect(error.issues).toEqual([{ server: null, field: '', message: expect.stringContaining('line 3, column 31') }]);
  });

  it('locates errors V8 reports without a position', async () => {
    const file = join(await tempDir(), 'boternity.json');
    await writeFile(file, '{\n  "mcpServers": {\n    "a": nul\n  }\n}');
    const error = await rejection(loadConfig(file, {}));
    expect(error.message).toMatch(
      new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: invalid JSON at line 3, column 10: `),
    );
  });

  it('reports validation errors with the file path', async () => {
    const file = join(await tempDir(), 'boternity.json');
    await writeFile(file, JSON.stringify({ mcpServers: { web: { type: 'websocket', url: 'http://x' } } }));
    const error = await rejection(loadConfig(file, {}));
    expect(error.message).toBe(
      `${file}: invalid config\n  mcpServers.web.type: unknown transport "websocket" (expected stdio, http, sse or auto)`,
    );
  });
});

describe('findJsonErrorOffset', () => {
  const samples = [
    '{"a": }',
    '{"a": 1,}',
    '{"a" 1}',
    '[1 2]',
    '{"a":1}x',
    '{"a": tru}',
    '{"a": 01}',
    '{"a": "b\nc"}',
    '{"a": "\\q"}',
    '{"a": -}',
    '{"a": [1, 2,]}',
    '{,}',
    '',
    '   ',
    '{"a": "unterminated',
  ];

  it.each(samples)('agrees with V8 where V8 gives a position: %j', (text) => {
    expect(() => JSON.parse(text)).toThrow();
    const offset = findJsonErrorOffset(text);
    expect(offset).toBeGreaterThanOrEqual(0);
    expect(offset).toBeLessThanOrEqual(text.length);
    const v8 = /at position (\d+)/.exec(catchMessage(() => JSON.parse(text)));
    if (v8) expect(offset).toBe(Number(v8[1]));
  });

  it.each(['{}', '[]', ' {"a": [1, -2.5e3, true, false, null, "x\\u00e9\\n"]} ', '"s"', '0'])(
    'accepts valid JSON: %j',
    (text) => {
      expect(findJsonErrorOffset(text)).toBe(-1);
      expect(parseConfigJson(text, null)).toEqual(JSON.parse(text));
    },
  );
});

function catchMessage(fn: () => unknown): string {
  try {
    fn();
    return '';
  } catch (error) {
    return (error as Error).message;
  }
}
