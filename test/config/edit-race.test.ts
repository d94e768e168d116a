/**
 * Issue 17 item 3: an API edit racing a hand edit saved the way vim and VS Code save (a temp
 * file renamed over the config, which no lock holds back). The editor's save lands between
 * the edit's read and its rename (the `beforeWrite` seam): the edit notices, is made again
 * on the saved text, and both end up in the file and in force; the watcher then reads back
 * a config already in force and applies nothing twice.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createConfigWriter } from '../../src/config/config-writer.js';
import { editConfig } from '../../src/config/edit-config.js';
import { loadConfig } from '../../src/config/load-config.js';
import type { AppConfig } from '../../src/config/schema.js';
import { type ConfigWatcher, watchConfig } from '../../src/config/watch-config.js';
import type { ConfigError } from '../../src/errors.js';
import { useTempDirs } from '../support/temp-dir.js';
import { waitFor } from '../support/wait-for.js';

const tempDir = useTempDirs('bnity-race-');
const watchers: ConfigWatcher[] = [];
afterEach(() => {
  for (const watcher of watchers.splice(0)) watcher.close();
});

/** Save `path` as an editor does: read it, change it, write a temp file, rename it over. */
function editorSave(path: string, change: (raw: { mcpServers: Record<string, Record<string, unknown>> }) => void) {
  const raw = JSON.parse(readFileSync(path, 'utf8'));
  change(raw);
  const swap = `${path}.swp`;
  writeFileSync(swap, `${JSON.stringify(raw, null, 2)}\n`);
  renameSync(swap, path);
}

async function configFile(): Promise<string> {
  const path = join(await tempDir(), 'boternity.json');
  await writeFile(path, `${JSON.stringify({ mcpServers: { x: { command: 'node' } } }, null, 2)}\n`);
  return path;
}

describe('an API edit racing an editor that saves by rename', () => {
  it('is made again on the saved text: the hand edit is not lost', async () => {
    const path = await configFile();
    let writes = 0;
    const edit = await editConfig(path, (doc) => doc.patchServer('x', { deniedTools: ['api'] }), {
      env: {},
      beforeWrite: () => {
        writes++;
        if (writes === 1) editorSave(path, (raw) => Object.assign(raw.mcpServers, { hand: { command: 'node' } }));
      },
    });
    expect(writes).toBe(2);
    const final = JSON.parse(await readFile(path, 'utf8'));
    expect(final.mcpServers).toEqual({ x: { command: 'node', deniedTools: ['api'] }, hand: { command: 'node' } });
    expect(Object.keys(edit.config.mcpServers)).toEqual(['x', 'hand']);
  });

  it('gives up after a few tries when the file keeps changing, leaving the last save as it is', async () => {
    const path = await configFile();
    let writes = 0;
    const edit = editConfig(path, (doc) => doc.patchServer('x', { deniedTools: ['api'] }), {
      env: {},
      attempts: 3,
      beforeWrite: () => {
        writes++;
        editorSave(path, (raw) => Object.assign(raw.mcpServers, { [`hand${writes}`]: { command: 'node' } }));
      },
    });
    await expect(edit).rejects.toMatchObject({ code: 'conflict' });
    await expect(edit).rejects.toThrow(/kept changing while it was being edited \(3 tries\): nothing was written/);
    const final = JSON.parse(await readFile(path, 'utf8'));
    expect(Object.keys(final.mcpServers)).toEqual(['x', 'hand1', 'hand2', 'hand3']);
    expect(final.mcpServers.x).toEqual({ command: 'node' });
  });

  it('in the service: the hand edit it was made on is in force, and the watcher applies nothing twice', async () => {
    const path = await configFile();
    let inForce: AppConfig = await loadConfig(path, {});
    const applied: string[][] = [];
    const apply = (config: AppConfig) => {
      inForce = config;
      applied.push(Object.keys(config.mcpServers));
    };
    let writes = 0;
    const writer = createConfigWriter({
      path,
      env: {},
      apply,
      inForce: () => inForce,
      beforeWrite: () => {
        writes++;
        if (writes === 1) editorSave(path, (raw) => Object.assign(raw.mcpServers, { hand: { command: 'node' } }));
      },
    });
    const errors: ConfigError[] = [];
    let reads = 0;
    watchers.push(
      watchConfig(path, {
        debounceMs: 20,
        env: {},
        inForce: () => inForce,
        queue: writer.queue,
        onChange: apply,
        onError: (error) => errors.push(error),
        onUnchanged: () => {
          reads++;
        },
      }),
    );
    await writer.edit((doc) => doc.patchServer('x', { deniedTools: ['api'] }));
    expect(applied).toEqual([['x', 'hand']]);
    expect(inForce.mcpServers.x?.deniedTools).toEqual(['api']);
    // The watcher reads the written file back: the same config, so nothing more is applied.
    await waitFor(() => reads > 0, { what: 'the watcher to read the file back' });
    expect(applied).toEqual([['x', 'hand']]);
    expect(errors).toEqual([]);
  });
});
