import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { writeDefaultConfig } from '../../src/config/default-config.js';
import { loadConfig } from '../../src/config/load-config.js';
import { useTempDirs } from '../support/temp-dir.js';

const tempDir = useTempDirs();

describe('writeDefaultConfig', () => {
  it('writes a pretty-printed default config that parses, with a files folder to serve', async () => {
    const home = join(await tempDir(), 'home');
    const file = join(home, 'boternity.json');
    expect(await writeDefaultConfig(file, home)).toBe(true);

    const text = await readFile(file, 'utf8');
    expect(text.endsWith('}\n')).toBe(true);
    expect(text).toContain('\n  "mcpServers": {\n');
    expect(JSON.parse(text)).toEqual({
      mcpServers: {
        memory: { preset: 'memory', env: { MEMORY_FILE_PATH: join(home, 'memory.jsonl') } },
        filesystem: { preset: 'filesystem', args: [join(home, 'files')] },
        everything: { preset: 'everything' },
      },
    });
    expect(await readdir(join(home, 'files'))).toEqual(['README.txt']);

    const config = await loadConfig(file, {});
    expect(Object.keys(config.mcpServers)).toEqual(['memory', 'filesystem', 'everything']);
    expect(config.mcpServers.memory).toMatchObject({
      command: process.execPath,
      env: { MEMORY_FILE_PATH: join(home, 'memory.jsonl') },
    });
    expect(config.mcpServers.filesystem).toMatchObject({ command: process.execPath });
    expect(config.mcpServers.filesystem?.transport === 'stdio' && config.mcpServers.filesystem.args[1]).toBe(
      join(home, 'files'),
    );
  });

  it('writes once and never overwrites', async () => {
    const home = await tempDir();
    const file = join(home, 'boternity.json');
    expect(await writeDefaultConfig(file, home)).toBe(true);
    await writeFile(file, '{"mcpServers": {}}\n');
    expect(await writeDefaultConfig(file, home)).toBe(false);
    expect(await readFile(file, 'utf8')).toBe('{"mcpServers": {}}\n');
  });

  it('lets exactly one of two simultaneous first starts write', async () => {
    const home = await tempDir();
    const file = join(home, 'boternity.json');
    const results = await Promise.all([writeDefaultConfig(file, home), writeDefaultConfig(file, home)]);
    expect(results.sort()).toEqual([false, true]);
    expect((await loadConfig(file, {})).mcpServers).toHaveProperty('memory');
    expect((await readdir(home)).sort()).toEqual(['boternity.json', 'files']);
  });

  it('keeps an existing README in the files folder', async () => {
    const home = await tempDir();
    await mkdir(join(home, 'files'));
    await writeFile(join(home, 'files', 'README.txt'), 'mine');
    expect(await writeDefaultConfig(join(home, 'boternity.json'), home)).toBe(true);
    expect(await readFile(join(home, 'files', 'README.txt'), 'utf8')).toBe('mine');
  });
});

describe('the default config', () => {
  it('starts real servers that answer tools/list', async () => {
    const home = await tempDir();
    const file = join(home, 'boternity.json');
    await writeDefaultConfig(file, home);
    const config = await loadConfig(file, {});
    for (const [name, server] of Object.entries(config.mcpServers)) {
      if (server.transport !== 'stdio') throw new Error(`${name} is not stdio`);
      const client = new Client({ name: 'config-test', version: '0.0.0' });
      const env = { ...(process.env as Record<string, string>), ...server.env };
      await client.connect(
        new StdioClientTransport({ command: server.command, args: server.args, env, stderr: 'ignore' }),
      );
      try {
        const { tools } = await client.listTools();
        expect(tools.length, name).toBeGreaterThan(0);
        if (name === 'filesystem') {
          const result = await client.callTool({ name: 'list_directory', arguments: { path: join(home, 'files') } });
          expect(JSON.stringify(result.content)).toContain('README.txt');
        }
        if (name === 'memory') {
          const entities = [{ name: 'boternity', entityType: 'project', observations: ['first run'] }];
          await client.callTool({ name: 'create_entities', arguments: { entities } });
          expect(await readFile(join(home, 'memory.jsonl'), 'utf8')).toContain('boternity');
        }
      } finally {
        await client.close();
      }
    }
  });
});
