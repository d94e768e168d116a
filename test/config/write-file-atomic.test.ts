import { lstat, mkdir, readdir, readFile, readlink, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createFileAtomic, writeFileAtomic } from '../../src/config/write-file-atomic.js';
import { useTempDirs } from '../support/temp-dir.js';

const tempDir = useTempDirs();

describe('writeFileAtomic', () => {
  it('creates and replaces a file, leaving no temp file behind', async () => {
    const dir = await tempDir();
    const file = join(dir, 'a.json');
    await writeFileAtomic(file, 'one');
    await writeFileAtomic(file, 'two');
    expect(await readFile(file, 'utf8')).toBe('two');
    expect(await readdir(dir)).toEqual(['a.json']);
  });

  it('replaces the target of a symlink and keeps the link (a config in a dotfiles repository)', async () => {
    const dir = await tempDir();
    await mkdir(join(dir, 'dotfiles'));
    const target = join(dir, 'dotfiles', 'boternity.json');
    await writeFile(target, 'one');
    const link = join(dir, 'boternity.json');
    await symlink(target, link);
    await writeFileAtomic(link, 'two');
    expect((await lstat(link)).isSymbolicLink()).toBe(true);
    expect(await readlink(link)).toBe(target);
    expect(await readFile(target, 'utf8')).toBe('two');
    expect((await readdir(join(dir, 'dotfiles'))).sort()).toEqual(['boternity.json']);
    expect((await readdir(dir)).sort()).toEqual(['boternity.json', 'dotfiles']);
  });

  it('keeps the mode of the file it replaces, or sets the one asked for', async () => {
    const dir = await tempDir();
    const file = join(dir, 'secret.json');
    await writeFile(file, 'x', { mode: 0o600 });
    await writeFileAtomic(file, 'y');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    await writeFileAtomic(file, 'z', { mode: 0o640 });
    expect((await stat(file)).mode & 0o777).toBe(0o640);
  });

  it('serves concurrent writers one whole text each', async () => {
    const dir = await tempDir();
    const file = join(dir, 'a.json');
    const texts = Array.from({ length: 10 }, (_, i) => `text-${i}-`.repeat(1000));
    await Promise.all(texts.map((text) => writeFileAtomic(file, text)));
    expect(texts).toContain(await readFile(file, 'utf8'));
    expect(await readdir(dir)).toEqual(['a.json']);
  });
});

describe('createFileAtomic', () => {
  it('creates a missing file and never overwrites an existing one', async () => {
    const dir = await tempDir();
    const file = join(dir, 'a.json');
    expect(await createFileAtomic(file, 'first')).toBe(true);
    expect(await createFileAtomic(file, 'second')).toBe(false);
    expect(await readFile(file, 'utf8')).toBe('first');
    expect(await readdir(dir)).toEqual(['a.json']);
  });

  it('lets exactly one of several racing creators win', async () => {
    const dir = await tempDir();
    const file = join(dir, 'a.json');
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => createFileAtomic(file, `writer ${i}`)));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await readFile(file, 'utf8')).toBe(`writer ${results.indexOf(true)}`);
  });
});
