import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { editConfigFile } from '../../src/config/edit-config.js';
import { createEditQueue } from '../../src/config/edit-queue.js';
import { loadConfig, parseConfigText } from '../../src/config/load-config.js';
import type { AppConfig } from '../../src/config/schema.js';
import { type ConfigWatcher, watchConfig } from '../../src/config/watch-config.js';
import { writeFileAtomic } from '../../src/config/write-file-atomic.js';
import type { ConfigError } from '../../src/errors.js';
import { useTempDirs } from '../support/temp-dir.js';

const tempDir = useTempDirs();
const watchers: ConfigWatcher[] = [];
afterEach(() => {
  for (const watcher of watchers.splice(0)) watcher.close();
});

type Kind = 'change' | 'error' | 'unchanged';
type Seen = { change: AppConfig; error: ConfigError; unchanged: undefined };

/** Records the watcher's callbacks; `next(kind)` resolves with the next one of that kind not yet taken. */
function recorder() {
  const events: { [K in Kind]: Seen[K][] } = { change: [], error: [], unchanged: [] };
  const taken: Record<Kind, number> = { change: 0, error: 0, unchanged: 0 };
  const waiting: { [K in Kind]: ((value: Seen[K]) => void)[] } = { change: [], error: [], unchanged: [] };
  const push = <K extends Kind>(kind: K, value: Seen[K]) => {
    (events[kind] as Seen[K][]).push(value);
    const waiter = (waiting[kind] as ((value: Seen[K]) => void)[]).shift();
    if (waiter) {
      taken[kind]++;
      waiter(value);
    }
  };
  const next = <K extends Kind>(kind: K, timeoutMs = 10_000): Promise<Seen[K]> => {
    const list = events[kind] as Seen[K][];
    if (list.length > taken[kind]) return Promise.resolve(list[taken[kind]++] as Seen[K]);
    return new Promise<Seen[K]>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${kind} within ${timeoutMs} ms`)), timeoutMs);
      (waiting[kind] as ((value: Seen[K]) => void)[]).push((value) => {
        clearTimeout(timer);
        resolve(value);
      });
    });
  };
  const callbacks = {
    onChange: (config: AppConfig) => push('change', config),
    onError: (error: ConfigError) => push('error', error),
    onUnchanged: () => push('unchanged', undefined),
  };
  return { events, next, callbacks };
}

const configText = (servers: Record<string, unknown>) => `${JSON.stringify({ mcpServers: servers }, null, 2)}\n`;

async function setup(
  initialServers: Record<string, unknown> = { a: { command: 'node' } },
  debounceMs = 100,
  inForce?: () => AppConfig,
) {
  const dir = await tempDir();
  const file = join(dir, 'boternity.json');
  await writeFile(file, configText(initialServers));
  const initial = await loadConfig(file, {});
  const rec = recorder();
  const warnings: string[][] = [];
  const onWarnings = (list: readonly { path: readonly (string | number)[] }[]) =>
    warnings.push(list.map((w) => w.path.join('.')));
  const watcher = watchConfig(file, {
    debounceMs,
    initial,
    env: {},
    ...rec.callbacks,
    onWarnings,
    ...(inForce ? { inForce } : {}),
  });
  watchers.push(watcher);
  return { dir, file, warnings, ...rec };
}

describe('watchConfig', () => {
  it('picks up a change', async () => {
    const { file, next } = await setup();
    await writeFile(file, configText({ a: { command: 'node' }, b: { url: 'http://localhost:1/mcp' } }));
    const config = await next('change');
    expect(Object.keys(config.mcpServers)).toEqual(['a', 'b']);
  });

  it("reads at once a file saved between the start's read and the watch (readText), and only then", async () => {
    const dir = await tempDir();
    const file = join(dir, 'boternity.json');
    const startText = configText({ a: { command: 'node' } });
    await writeFile(file, startText);
    const initial = await loadConfig(file, {});
    // Saved while the service was starting: no change event will come for it any more.
    await writeFile(file, configText({ a: { command: 'node' }, late: { command: 'node' } }));
    const rec = recorder();
    watchers.push(watchConfig(file, { debounceMs: 50, initial, env: {}, readText: startText, ...rec.callbacks }));
    expect(Object.keys((await rec.next('change')).mcpServers)).toEqual(['a', 'late']);
    // The same text as at the start: nothing is read.
    const same = recorder();
    const other = join(dir, 'same.json');
    await writeFile(other, startText);
    watchers.push(watchConfig(other, { debounceMs: 50, initial, env: {}, readText: startText, ...same.callbacks }));
    await writeFile(join(dir, 'unrelated.json'), '{}');
    await expect(same.next('unchanged', 500)).rejects.toThrow(/no unchanged within 500 ms/);
    expect(same.events.change).toEqual([]);
  });

  it('sees a save of the target of a symlinked config (a dotfiles repository)', async () => {
    const dir = await tempDir();
    await mkdir(join(dir, 'dotfiles'));
    const target = join(dir, 'dotfiles', 'boternity.json');
    await writeFile(target, configText({ a: { command: 'node' } }));
    const link = join(dir, 'boternity.json');
    await symlink(target, link);
    const rec = recorder();
    watchers.push(
      watchConfig(link, { debounceMs: 50, initial: await loadConfig(link, {}), env: {}, ...rec.callbacks }),
    );
    await writeFile(target, configText({ a: { command: 'node' }, b: { command: 'node' } }));
    expect(Object.keys((await rec.next('change')).mcpServers)).toEqual(['a', 'b']);
  });

  it('debounces several quick writes into one change with the last content', async () => {
    const { file, next, events } = await setup({ a: { command: 'node' } }, 300);
    for (let i = 1; i <= 5; i++) writeFileSync(file, configText({ a: { command: 'node', args: [String(i)] } }));
    const config = await next('change');
    expect(config.mcpServers.a).toMatchObject({ args: ['5'] });
    // Reads are serialized: once a later write is reported unchanged, nothing else is pending.
    await writeFile(file, configText({ a: { command: 'node', args: ['5'] } }));
    await next('unchanged');
    expect(events.change).toHaveLength(1);
  });

  it('picks up an atomic replace (temp file + rename)', async () => {
    const { file, next, events } = await setup();
    await writeFileAtomic(file, configText({ renamed: { command: 'node' } }));
    expect(Object.keys((await next('change')).mcpServers)).toEqual(['renamed']);
    await writeFileAtomic(file, configText({ again: { command: 'node' } }));
    expect(Object.keys((await next('change')).mcpServers)).toEqual(['again']);
    expect(events.error).toEqual([]);
  });

  it('reports a broken write, then picks up the fixed one', async () => {
    const { file, next, events } = await setup();
    await writeFile(file, '{"mcpServers": {');
    const error = await next('error');
    expect(error.file).toBe(file);
    expect(error.message).toMatch(/invalid JSON at line 1/);
    await writeFile(file, configText({ a: { command: 'node', type: 'websocket' } }));
    expect((await next('error')).issues).toEqual([
      { server: 'a', field: 'type', message: expect.stringContaining('websocket') },
    ]);
    await writeFile(file, configText({ fixed: { command: 'node' } }));
    expect(Object.keys((await next('change')).mcpServers)).toEqual(['fixed']);
    expect(events.change).toHaveLength(1);
  });

  it('does not report a rewrite that means the same config', async () => {
    const { file, next, events } = await setup();
    await writeFile(
      file,
      JSON.stringify({ mcpServers: { a: { command: 'node', args: [], unknownKey: 1 } }, other: true }),
    );
    await next('unchanged');
    expect(events.change).toEqual([]);
  });

  it('survives the file being deleted and re-created', async () => {
    const { file, next } = await setup();
    await rm(file);
    const error = await next('error');
    expect(error.code).toBe('config_unreadable');
    await writeFile(file, configText({ back: { command: 'node' } }));
    expect(Object.keys((await next('change')).mcpServers)).toEqual(['back']);
    await writeFile(file, configText({ back: { command: 'node' }, more: { command: 'node' } }));
    expect(Object.keys((await next('change')).mcpServers)).toEqual(['back', 'more']);
  });

  it('ignores other files in the directory', async () => {
    const { dir, file, next, events } = await setup();
    await writeFile(join(dir, 'other.json'), 'not json');
    await writeFile(file, configText({ mine: { command: 'node' } }));
    expect(Object.keys((await next('change')).mcpServers)).toEqual(['mine']);
    expect(events.error).toEqual([]);
  });

  it('without an initial config, reports the first valid read as a change', async () => {
    const dir = await tempDir();
    const file = join(dir, 'boternity.json');
    const { next, callbacks } = recorder();
    watchers.push(watchConfig(file, { debounceMs: 50, env: {}, ...callbacks }));
    await writeFile(file, '{}');
    expect((await next('change')).mcpServers).toEqual({});
  });

  it("does not apply the service's own write a second time: what is read is compared with the config in force", async () => {
    const cell: { inForce: AppConfig | null } = { inForce: null };
    const { file, next, events } = await setup(undefined, 100, () => cell.inForce as AppConfig);
    cell.inForce = await loadConfig(file, {});
    const text = configText({ a: { command: 'node' }, mine: { command: 'node' } });
    // The service applies its own edit, then writes it.
    cell.inForce = parseConfigText(text, file, {});
    await writeFileAtomic(file, text);
    await next('unchanged');
    // An edit by someone else afterwards is a change again.
    await writeFile(file, configText({ other: { command: 'node' } }));
    expect(Object.keys((await next('change')).mcpServers)).toEqual(['other']);
    expect(events.change).toHaveLength(1);
  });

  it('refuses a file that names no servers at all while servers run; an explicit empty mcpServers is applied', async () => {
    const { file, next, events } = await setup();
    await writeFile(file, '{"bots": {}}\n');
    const error = await next('error');
    expect(error.message).toBe(
      `${file}: names no servers (no "mcpServers" key) and would stop all 1 running; write "mcpServers": {} to remove them all on purpose`,
    );
    expect(error.issues).toEqual([
      { server: null, field: 'mcpServers', message: expect.stringContaining('no servers') },
    ]);
    expect(events.change).toEqual([]);
    await writeFile(file, '{"mcpServers": {}}\n');
    expect((await next('change')).mcpServers).toEqual({});
  });

  it('reports the warnings of an applied file (unknown keys kept)', async () => {
    const { file, next, warnings } = await setup();
    await writeFile(
      file,
      JSON.stringify({ mcpServers: { a: { command: 'node', args: ['1'], myNote: 'x' } }, toolX: {} }),
    );
    await next('change');
    expect(warnings).toEqual([['toolX', 'mcpServers.a.myNote']]);
  });

  it('refuses a file nested 10,000 deep naming line and column, and goes on watching', async () => {
    const { file, next, events } = await setup();
    await writeFile(file, `{"mcpServers": {}, "x": ${'['.repeat(10_000)}${']'.repeat(10_000)}}`);
    const error = await next('error');
    expect(error.message).toBe(`${file}: invalid JSON at line 1, column 124: nested deeper than 100 levels`);
    await writeFile(file, configText({ back: { command: 'node' } }));
    expect(Object.keys((await next('change')).mcpServers)).toEqual(['back']);
    expect(events.error).toHaveLength(1);
  });

  it('turns any failure while reloading into an error of the file, and goes on watching', async () => {
    const dir = await tempDir();
    const file = join(dir, 'boternity.json');
    await writeFile(file, configText({ a: { command: 'node' } }));
    const { next, callbacks } = recorder();
    let failures = 1;
    watchers.push(
      watchConfig(file, {
        debounceMs: 50,
        env: {},
        initial: await loadConfig(file, {}),
        ...callbacks,
        onChange: (config) => {
          if (failures-- > 0) throw new RangeError('Maximum call stack size exceeded');
          callbacks.onChange(config);
        },
      }),
    );
    await writeFile(file, configText({ b: { command: 'node' } }));
    const error = await next('error');
    expect(error.message).toBe(`${file}: could not be reloaded: Maximum call stack size exceeded`);
    expect(error.code).toBe('config_invalid');
    // Not applied, so the same file is still a change when read again.
    await writeFile(file, `${configText({ b: { command: 'node' } })}\n`);
    expect(Object.keys((await next('change')).mcpServers)).toEqual(['b']);
  });

  it('refuses a FIFO put in place of the file with one line, and edits and reloads go on (the queue is not held)', async () => {
    const dir = await tempDir();
    const file = join(dir, 'boternity.json');
    await writeFile(file, configText({ a: { command: 'node' } }));
    const queue = createEditQueue();
    const rec = recorder();
    const initial = await loadConfig(file, {});
    watchers.push(watchConfig(file, { debounceMs: 50, initial, env: {}, queue, ...rec.callbacks }));
    await rm(file);
    execFileSync('mkfifo', [file]);
    const error = await rec.next('error');
    expect(error.message).toBe(`${file}: cannot read config: it is a named pipe (FIFO), not a regular file`);
    // An edit queued behind that read is answered (refused: there is no config file to build on), not held.
    const edit = editConfigFile(file, (doc) => doc.addServer('b', { command: 'node' }), { queue, env: {} });
    await expect(edit).rejects.toThrow(`${file}: cannot read config: it is a named pipe (FIFO), not a regular file`);
    await rm(file);
    await writeFile(file, configText({ a: { command: 'node' }, restored: { command: 'node' } }));
    expect(Object.keys((await rec.next('change')).mcpServers)).toEqual(['a', 'restored']);
    expect(rec.events.change).toHaveLength(1);
  });

  it('refuses "mcpServers": null while servers run (it is not an object of servers)', async () => {
    const { file, next, events } = await setup();
    await writeFile(file, '{"mcpServers": null}\n');
    expect((await next('error')).message).toBe(
      `${file}: invalid config\n  mcpServers: expected an object of servers by name, got null`,
    );
    expect(events.change).toEqual([]);
  });
});
