import { mkdir, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveConfigPath, resolveHome } from '../../src/config/resolve-paths.js';
import { useTempDirs } from '../support/temp-dir.js';

const tempDir = useTempDirs();

describe('resolveHome', () => {
  it('prefers the flag, then BOTERNITY_HOME, then ~/.boternity', () => {
    expect(resolveHome({ home: '/flag', env: { BOTERNITY_HOME: '/env' } })).toBe('/flag');
    expect(resolveHome({ env: { BOTERNITY_HOME: '/env' } })).toBe('/env');
    expect(resolveHome({ env: {} })).toBe(join(homedir(), '.boternity'));
    expect(resolveHome({ env: { BOTERNITY_HOME: '' } })).toBe(join(homedir(), '.boternity'));
  });

  it('makes relative paths absolute and expands ~', () => {
    expect(resolveHome({ home: 'data', cwd: '/srv', env: {} })).toBe('/srv/data');
    expect(resolveHome({ env: { BOTERNITY_HOME: '~/bn' } })).toBe(join(homedir(), 'bn'));
  });
});

describe('resolveConfigPath', () => {
  it('prefers --config, then BOTERNITY_CONFIG, then ./boternity.json, then <home>/boternity.json', async () => {
    const cwd = await tempDir();
    const home = await tempDir();
    const env = { BOTERNITY_CONFIG: join(home, 'env.json') };
    expect(resolveConfigPath({ config: 'my.json', home, cwd, env })).toEqual({
      path: join(cwd, 'my.json'),
      source: 'flag',
    });
    expect(resolveConfigPath({ home, cwd, env })).toEqual({ path: join(home, 'env.json'), source: 'env' });
    expect(resolveConfigPath({ home, cwd, env: {} })).toEqual({ path: join(home, 'boternity.json'), source: 'home' });
    await writeFile(join(cwd, 'boternity.json'), '{}');
    expect(resolveConfigPath({ home, cwd, env: {} })).toEqual({ path: join(cwd, 'boternity.json'), source: 'cwd' });
    expect(resolveConfigPath({ home, cwd, env })).toMatchObject({ source: 'env' });
  });

  it('does not take a directory named boternity.json in the working directory', async () => {
    const cwd = await tempDir();
    const home = await tempDir();
    await mkdir(join(cwd, 'boternity.json'));
    expect(resolveConfigPath({ home, cwd, env: {} }).source).toBe('home');
  });
});
