import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { clientConfigPath, importServers, readClientServers } from '../../src/config/import-client-config.js';
import { loadConfig } from '../../src/config/load-config.js';
import { useTempDirs } from '../support/temp-dir.js';

const tempDir = useTempDirs('bnity-import-');

const CLAUDE_DESKTOP = {
  globalShortcut: 'Ctrl+Space',
  mcpServers: {
    filesystem: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'] },
    memory: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'], env: { MEMORY_FILE_PATH: '/m' } },
  },
};

describe('clientConfigPath', () => {
  it('knows where each client keeps its file on Linux and macOS', () => {
    const env = { HOME: '/home/u', XDG_CONFIG_HOME: '' };
    const mac = process.platform === 'darwin';
    expect(clientConfigPath('cursor', env)).toBe('/home/u/.cursor/mcp.json');
    expect(clientConfigPath('claude-desktop', env)).toBe(
      mac
        ? '/home/u/Library/Application Support/Claude/claude_desktop_config.json'
        : '/home/u/.config/Claude/claude_desktop_config.json',
    );
    if (!mac) {
      expect(clientConfigPath('claude-desktop', { HOME: '/home/u', XDG_CONFIG_HOME: '/xdg' })).toBe(
        '/xdg/Claude/claude_desktop_config.json',
      );
      expect(clientConfigPath('vscode', env)).toBe('/home/u/.config/Code/User/mcp.json');
    }
  });
});

describe('readClientServers', () => {
  it("reads Claude Desktop's servers", async () => {
    const file = join(await tempDir(), 'claude_desktop_config.json');
    await writeFile(file, JSON.stringify(CLAUDE_DESKTOP));
    expect(await readClientServers(file)).toEqual(CLAUDE_DESKTOP.mcpServers);
  });

  it("reads VS Code's JSONC file and makes its paths absolute", async () => {
    const workspace = await tempDir();
    await mkdir(join(workspace, '.vscode'));
    const file = join(workspace, '.vscode', 'mcp.json');
    await writeFile(
      file,
      // biome-ignore lint/suspicious/noTemplateCurlyInString: VS Code's variable syntax under test
      '{ // comment\n "servers": { "s": { "type": "stdio", "command": "node", "cwd": "${workspaceFolder}/tools", "envFile": ".env", }, }, }',
    );
    expect(await readClientServers(file)).toEqual({
      s: { type: 'stdio', command: 'node', cwd: join(workspace, 'tools'), envFile: join(workspace, '.env') },
    });
  });

  it('names the file when it is missing, not JSON, or has no servers', async () => {
    const dir = await tempDir();
    await expect(readClientServers(join(dir, 'nope.json'))).rejects.toThrow(
      `${join(dir, 'nope.json')}: cannot read config: file not found`,
    );
    const bad = join(dir, 'bad.json');
    await writeFile(bad, '{"mcpServers": ');
    await expect(readClientServers(bad)).rejects.toThrow(`${bad}: invalid JSON at line 1`);
    const none = join(dir, 'none.json');
    await writeFile(none, '{"theme": "dark"}');
    await expect(readClientServers(none)).rejects.toThrow(
      `${none}: no "mcpServers" (or VS Code "servers") in this file`,
    );
    await writeFile(none, '{"mcpServers": {"x": 1}}');
    await expect(readClientServers(none)).rejects.toThrow(`${none}: mcpServers.x: expected an object`);
  });
});

describe('importServers', () => {
  it('adds the servers not present; run twice it adds nothing and says which it skipped', async () => {
    const dir = await tempDir();
    const source = join(dir, 'claude_desktop_config.json');
    await writeFile(source, JSON.stringify(CLAUDE_DESKTOP));
    const config = join(dir, 'boternity.json');
    await writeFile(config, '{\n  // mine\n  "mcpServers": {\n    "memory": { "command": "node" }\n  }\n}\n');
    const servers = await readClientServers(source);

    expect(await importServers(config, servers, { env: {} })).toEqual({
      renamed: [],
      added: ['filesystem'],
      skipped: ['memory'],
      replaced: [],
      movedSecrets: [],
    });
    const once = await readFile(config, 'utf8');
    expect(once).toContain('// mine');
    expect((await loadConfig(config, {})).mcpServers.memory).toMatchObject({ command: 'node', args: [] });

    expect(await importServers(config, servers, { env: {} })).toEqual({
      renamed: [],
      added: [],
      skipped: ['filesystem', 'memory'],
      replaced: [],
      movedSecrets: [],
    });
    expect(await readFile(config, 'utf8')).toBe(once);

    expect(await importServers(config, servers, { force: true, env: {} })).toEqual({
      renamed: [],
      added: [],
      skipped: [],
      replaced: ['filesystem', 'memory'],
      movedSecrets: [],
    });
    expect((await loadConfig(config, {})).mcpServers.memory).toMatchObject({ command: 'npx' });
  });

  it('imports nothing when one server is invalid, naming it', async () => {
    const config = join(await tempDir(), 'boternity.json');
    await writeFile(config, '{"mcpServers": {}}');
    await expect(
      importServers(config, { good: { command: 'node' }, bad: { url: 'ftp://x' } }, { env: {} }),
    ).rejects.toThrow('mcpServers.bad.url: must be an http:// or https:// URL');
    expect(await readFile(config, 'utf8')).toBe('{"mcpServers": {}}');
  });

  it('imports names other clients take but boternity does not under valid ones, and says so', async () => {
    const config = join(await tempDir(), 'boternity.json');
    await writeFile(config, '{"mcpServers": {"Brave-Search": {"command": "old"}}}');
    const servers = {
      'Brave Search': { command: 'brave' },
      '@org/tool': { command: 'org' },
      'org tool': { command: 'org2' },
      ' ☃ ': { command: 'snow' },
      [`x${'y'.repeat(60)}`]: { command: 'long' },
      ok: { command: 'ok' },
    };
    const result = await importServers(config, servers, { env: {} });
    expect(result.renamed).toEqual([
      { from: 'Brave Search', to: 'Brave-Search' },
      { from: '@org/tool', to: 'org-tool' },
      { from: 'org tool', to: 'org-tool-2' },
      { from: ' ☃ ', to: 'server' },
      { from: `x${'y'.repeat(60)}`, to: `x${'y'.repeat(47)}` },
    ]);
    // A renamed server meets the names already there as any other: present, so skipped.
    expect(result.skipped).toEqual(['Brave-Search']);
    expect(result.added).toEqual(['org-tool', 'org-tool-2', 'server', `x${'y'.repeat(47)}`, 'ok']);
    const loaded = await loadConfig(config, {});
    expect(loaded.mcpServers['org-tool-2']).toMatchObject({ command: 'org2' });
    expect(loaded.mcpServers['Brave-Search']).toMatchObject({ command: 'old' });
  });

  it('moves the secret env values of the servers it writes to the keystore; a skipped one keeps its entries', async () => {
    const dir = await tempDir();
    const config = join(dir, 'boternity.json');
    await writeFile(config, '{"mcpServers": {"old": {"command": "node"}}}');
    const stored = new Map<string, string>([['old.API_KEY', 'kept']]);
    const keystore = {
      set: async (name: string, secret: string) => {
        stored.set(name, secret);
      },
    };
    const servers = {
      old: { command: 'node', env: { API_KEY: 'replaced?' } },
      'new one': { command: 'node', env: { GITHUB_TOKEN: 'ghp_x', NAME: 'n' } },
    };
    expect(await importServers(config, { old: servers.old }, { env: {}, keystore })).toEqual({
      renamed: [],
      added: [],
      skipped: ['old'],
      replaced: [],
      movedSecrets: [],
    });
    expect(stored.get('old.API_KEY')).toBe('kept');
    // A refused import stores nothing.
    await expect(
      importServers(config, { neu: { ...servers['new one'], cwd: '' } }, { env: {}, keystore }),
    ).rejects.toThrow('mcpServers.neu.cwd');
    expect([...stored.keys()]).toEqual(['old.API_KEY']);
    const result = await importServers(config, { neu: servers['new one'] }, { env: {}, keystore });
    expect(result.movedSecrets).toEqual([{ server: 'neu', variable: 'GITHUB_TOKEN', credential: 'neu.GITHUB_TOKEN' }]);
    expect(stored.get('neu.GITHUB_TOKEN')).toBe('ghp_x');
    expect((await loadConfig(config, {})).mcpServers.neu).toMatchObject({
      // biome-ignore lint/suspicious/noTemplateCurlyInString: config syntax under test
      env: { GITHUB_TOKEN: '${secret:neu.GITHUB_TOKEN}', NAME: 'n' },
    });
  });
});
