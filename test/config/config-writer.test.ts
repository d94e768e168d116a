import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createConfigWriter } from '../../src/config/config-writer.js';
import type { AppConfig } from '../../src/config/schema.js';
import { useTempDirs } from '../support/temp-dir.js';

const tempDir = useTempDirs('bnity-writer-');

async function setup() {
  const path = join(await tempDir(), 'boternity.json');
  await writeFile(path, '{"mcpServers": {}}\n');
  const applied: AppConfig[] = [];
  const writer = createConfigWriter({ path, env: {}, apply: (config) => applied.push(config) });
  return { path, applied, writer };
}

describe('createConfigWriter', () => {
  it('applies each written config once', async () => {
    const { path, applied, writer } = await setup();
    const edit = await writer.edit((doc) => doc.addServer('a', { command: 'node' }));
    expect(applied).toEqual([edit.config]);
    expect(await readFile(path, 'utf8')).toBe(edit.text);
  });

  it('applies nothing when an edit is refused', async () => {
    const { path, applied, writer } = await setup();
    await expect(writer.edit((doc) => doc.addServer('bad', { url: 'nope' }))).rejects.toThrow(/mcpServers\.bad\.url/);
    expect(applied).toEqual([]);
    expect(await readFile(path, 'utf8')).toBe('{"mcpServers": {}}\n');
  });

  it('imports through the same path', async () => {
    const { applied, writer } = await setup();
    expect(await writer.importServers({ x: { command: 'node' } }, { force: false })).toEqual({
      renamed: [],
      added: ['x'],
      skipped: [],
      replaced: [],
      movedSecrets: [],
    });
    expect(Object.keys(applied[0]?.mcpServers ?? {})).toEqual(['x']);
  });
});
