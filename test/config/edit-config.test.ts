import { chmod, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { lock } from 'proper-lockfile';
import { describe, expect, it } from 'vitest';
import { type ConfigDocument, editConfig, editConfigFile } from '../../src/config/edit-config.js';
import { createEditQueue } from '../../src/config/edit-queue.js';
import { loadConfig } from '../../src/config/load-config.js';
import { openConfigDocument } from '../../src/config/open-config-document.js';
import { ConfigError, HubError, UnknownServerError } from '../../src/errors.js';
import { useTempDirs } from '../support/temp-dir.js';

const tempDir = useTempDirs('bnity-edit-');

const COMMENTED = `// kept: a comment before the object
{
    "mcpServers": {
        // the first server
        "a": { "command": "node", "args": ["a.js"], "futureKey": { "x": 1 } },
        "b": {"url": "http://127.0.0.1:9/mcp"}
    },
    "someOtherTool": [1, 2, 3]
}
`;

async function configFile(text = COMMENTED): Promise<string> {
  const file = join(await tempDir(), 'boternity.json');
  await writeFile(file, text);
  return file;
}

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a rejection');
}

describe('openConfigDocument', () => {
  it('adds, patches and removes servers keeping comments, unknown keys and untouched entries as written', () => {
    const doc = openConfigDocument(COMMENTED);
    doc.addServer('c', { command: 'node', args: ['c.js'] });
    doc.patchServer('b', { enabled: false });
    doc.removeServer('a');
    const text = doc.text();
    expect(text).toContain('// kept: a comment before the object');
    expect(text).toContain('"someOtherTool": [1, 2, 3]');
    expect(text.indexOf('"b"')).toBeLessThan(text.indexOf('"c"'));
    expect(text).toContain('        "c": {\n            "command": "node"');
    expect(doc.serverNames()).toEqual(['b', 'c']);
    expect(doc.getServer('b')).toEqual({ url: 'http://127.0.0.1:9/mcp', enabled: false });
  });

  it('leaves an entry it does not touch byte for byte', () => {
    const doc = openConfigDocument(COMMENTED);
    doc.patchServer('b', { enabled: false });
    expect(doc.text()).toContain('"a": { "command": "node", "args": ["a.js"], "futureKey": { "x": 1 } },');
  });

  it('patches shallowly: null removes a key, other keys stay', () => {
    const doc = openConfigDocument(COMMENTED);
    doc.patchServer('a', { args: null, deniedTools: ['x'] });
    expect(doc.getServer('a')).toEqual({ command: 'node', futureKey: { x: 1 }, deniedTools: ['x'] });
  });

  it('refuses a duplicate add (conflict) and edits of absent servers (unknown server)', () => {
    const doc = openConfigDocument(COMMENTED);
    expect(() => doc.addServer('a', { command: 'x' })).toThrow(HubError);
    try {
      doc.addServer('a', { command: 'x' });
    } catch (error) {
      expect((error as HubError).code).toBe('conflict');
    }
    expect(() => doc.patchServer('zz', { enabled: true })).toThrow(UnknownServerError);
    expect(() => doc.removeServer('zz')).toThrow(UnknownServerError);
    doc.setServer('a', { command: 'replaced' });
    expect(doc.getServer('a')).toEqual({ command: 'replaced' });
  });

  it("edits VS Code's servers key where the file uses it", () => {
    const doc = openConfigDocument('{\n  "servers": {\n    "x": { "type": "stdio", "command": "a" },\n  },\n}\n');
    doc.addServer('y', { command: 'b' });
    expect(doc.text()).not.toContain('mcpServers');
    expect(doc.serverNames()).toEqual(['x', 'y']);
  });

  it('starts an empty file with mcpServers', () => {
    const doc = openConfigDocument('{}\n');
    doc.addServer('x', { command: 'a' });
    expect(JSON.parse(doc.text())).toEqual({ mcpServers: { x: { command: 'a' } } });
  });
});

describe('editConfigFile', () => {
  it('writes the file 0600: a new one, a looser one tightened, a stricter one kept (issue 18 item 6)', async () => {
    const add = (name: string) => (doc: ConfigDocument) => doc.addServer(name, { command: 'node' });
    const fresh = join(await tempDir(), 'boternity.json');
    await editConfigFile(fresh, add('a'));
    expect((await stat(fresh)).mode & 0o777).toBe(0o600);
    const loose = await configFile('{ "mcpServers": {} }\n');
    await chmod(loose, 0o644);
    await editConfigFile(loose, add('a'));
    expect((await stat(loose)).mode & 0o777).toBe(0o600);
    const strict = await configFile('{ "mcpServers": {} }\n');
    await chmod(strict, 0o400);
    await editConfigFile(strict, add('a'));
    expect((await stat(strict)).mode & 0o777).toBe(0o400);
    expect((await loadConfig(strict, {})).mcpServers.a).toMatchObject({ command: 'node' });
  });

  it('writes the edit and resolves with the validated config', async () => {
    const file = await configFile();
    const config = await editConfigFile(file, (doc) => doc.addServer('c', { command: 'node', args: ['c.js'] }));
    expect(Object.keys(config.mcpServers)).toEqual(['a', 'b', 'c']);
    expect(config.mcpServers.c).toMatchObject({ transport: 'stdio', command: 'node', args: ['c.js'] });
    expect(await loadConfig(file, {})).toEqual(config);
    expect(await readFile(file, 'utf8')).toContain('// the first server');
  });

  it('refuses an edit that makes the file invalid, naming the field, and leaves the file untouched', async () => {
    const file = await configFile();
    const error = await rejection(editConfigFile(file, (doc) => doc.addServer('bad', { url: 'ftp://x' })));
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).toContain('mcpServers.bad.url: must be an http:// or https:// URL');
    expect(await readFile(file, 'utf8')).toBe(COMMENTED);
    expect((await readdir(join(file, '..'))).sort()).toEqual(['boternity.json']);
  });

  it('refuses to edit a file that is not JSON, with line and column', async () => {
    const file = await configFile('{ "mcpServers": { nope } }');
    const error = await rejection(editConfigFile(file, (doc) => doc.addServer('c', { command: 'x' })));
    expect(error.message).toMatch(/invalid JSON at line 1, column 19/);
    expect(await readFile(file, 'utf8')).toBe('{ "mcpServers": { nope } }');
  });

  it('creates a missing file', async () => {
    const file = join(await tempDir(), 'sub', 'boternity.json');
    await editConfigFile(file, (doc) => doc.addServer('x', { command: 'node' }));
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ mcpServers: { x: { command: 'node' } } });
  });

  it('keeps all of 20 concurrent adds, with and without the in-process queue', async () => {
    const file = await configFile();
    const queue = createEditQueue();
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        editConfigFile(file, (doc) => doc.addServer(`s${i}`, { command: 'node' }), i % 2 === 0 ? { queue } : {}),
      ),
    );
    const config = await loadConfig(file, {});
    expect(Object.keys(config.mcpServers).sort()).toEqual(
      ['a', 'b', ...Array.from({ length: 20 }, (_, i) => `s${i}`)].sort(),
    );
  });

  it('says so when another process holds the lock, and writes nothing', async () => {
    const file = await configFile();
    const release = await lock(file, { realpath: false });
    try {
      const error = await rejection(
        editConfigFile(file, (doc) => doc.addServer('c', { command: 'x' }), { lockWaitMs: 100 }),
      );
      expect(error).toBeInstanceOf(HubError);
      expect((error as HubError).code).toBe('conflict');
      expect(error.message).toMatch(/is being changed by another process .*nothing was written; try again$/);
    } finally {
      await release();
    }
    expect(await readFile(file, 'utf8')).toBe(COMMENTED);
  });

  it('runs afterWrite once the text is written, and skips writing an edit that changes nothing', async () => {
    const file = await configFile();
    const seen: string[] = [];
    const hooks = { afterWrite: () => seen.push('after') };
    await editConfig(file, (doc) => doc.patchServer('a', { enabled: false }), hooks);
    expect(seen).toEqual(['after']);
    const edit = await editConfig(file, (doc) => doc.patchServer('a', { enabled: false }), hooks);
    expect(seen).toEqual(['after']);
    expect(edit.config.mcpServers.a?.enabled).toBe(false);
  });
});
