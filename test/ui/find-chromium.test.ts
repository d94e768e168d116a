/**
 * The browser the tests use needs nothing beyond Node: `BOTERNITY_CHROMIUM` first, then an
 * installed Chromium or Chrome, then the one `@sparticuz/chromium` ships, unpacked once even
 * when several processes ask for it at the same time.
 */
import { accessSync, constants, existsSync, readdirSync, readFileSync } from 'node:fs';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { findChromium, launchChromium } from '../support/find-chromium.js';
import { useTempDirs } from '../support/temp-dir.js';
import { unpackChromium } from '../support/unpack-chromium.js';

const tempDir = useTempDirs('bnity-chromium-');
const PACKAGE_JSON = fileURLToPath(new URL('../../node_modules/@sparticuz/chromium/package.json', import.meta.url));
// The package holds a Chromium for Linux x64 only; elsewhere a browser must be installed.
const shipped = process.platform === 'linux' && process.arch === 'x64';

/** A file that is executable but no browser. */
async function fakeBrowser(dir: string, name: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, '#!/bin/sh\necho "not a browser" >&2\nexit 1\n');
  await chmod(path, 0o755);
  return path;
}

describe('finding the Chromium the browser tests use', () => {
  it('takes BOTERNITY_CHROMIUM before a browser installed on the machine', async () => {
    const dir = await tempDir();
    await fakeBrowser(dir, 'chromium');
    const chosen = await fakeBrowser(dir, 'my-chromium');
    const choice = await findChromium({ PATH: dir, BOTERNITY_CHROMIUM: chosen }, []);
    expect(choice).toEqual({ path: chosen, from: 'BOTERNITY_CHROMIUM', env: {} });
  });

  it('refuses a BOTERNITY_CHROMIUM that names no executable file, in one line', async () => {
    const dir = await tempDir();
    const plain = join(dir, 'chromium');
    await writeFile(plain, '');
    for (const path of [join(dir, 'missing'), plain, dir])
      await expect(findChromium({ BOTERNITY_CHROMIUM: path }, [])).rejects.toThrow(
        new Error(`BOTERNITY_CHROMIUM=${path} is not an executable file`),
      );
  });

  it('takes a Chromium, then a Chrome, on PATH, then one installed off PATH, before the package', async () => {
    const [first, second] = [await tempDir(), await tempDir()];
    await mkdir(join(first, 'chromium'));
    const chrome = await fakeBrowser(first, 'google-chrome-stable');
    const chromium = await fakeBrowser(second, 'chromium');
    const installed = { from: 'the Chromium installed on this machine', env: {} };
    expect(await findChromium({ PATH: `${first}:${second}` }, [])).toEqual({ path: chromium, ...installed });
    expect(await findChromium({ PATH: first }, [])).toEqual({ path: chrome, ...installed });
    const placed = await fakeBrowser(await tempDir(), 'chrome');
    expect(await findChromium({ PATH: await tempDir() }, [join(first, 'nothing'), placed])).toEqual({
      path: placed,
      ...installed,
    });
  });

  it('says which browser it picked when that one does not launch', async () => {
    const broken = await fakeBrowser(await tempDir(), 'chromium');
    const error = await launchChromium(await findChromium({ BOTERNITY_CHROMIUM: broken }, [])).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    const message = (error as Error).message;
    expect(message).toMatch(
      new RegExp(`^Chromium from BOTERNITY_CHROMIUM \\(${broken}\\) did not launch: .+; set BOTERNITY_CHROMIUM=`),
    );
    expect(message).not.toContain('\n');
  });

  it.runIf(shipped)(
    'with no browser installed, launches the one @sparticuz/chromium ships and renders a page',
    async () => {
      const choice = await findChromium({ PATH: await tempDir() }, []);
      expect(choice.from).toMatch(/^@sparticuz\/chromium \d+\.\d+\.\d+$/);
      const browser = await launchChromium(choice);
      try {
        const page = await browser.newPage();
        await page.setContent('<h1>boternity</h1><script>document.title = String(6 * 7)</script>');
        expect(await page.locator('h1').textContent()).toBe('boternity');
        expect(await page.title()).toBe('42');
      } finally {
        await browser.close();
      }
    },
  );

  it.runIf(shipped)(
    'unpacks the package once when two ask at the same time, clearing what a killed run left',
    async () => {
      const root = await tempDir();
      const { version } = JSON.parse(readFileSync(PACKAGE_JSON, 'utf8')) as { version: string };
      const folder = `boternity-chromium-${version}-u${process.getuid?.() ?? 0}`;
      await mkdir(join(root, `${folder}.part-killed`));
      await writeFile(join(root, `${folder}.part-killed`, 'chromium'), 'half');
      const [a, b] = await Promise.all([unpackChromium(root), unpackChromium(root)]);
      expect(b).toEqual(a);
      expect(a.path).toBe(join(root, folder, 'chromium'));
      accessSync(a.path, constants.X_OK);
      expect(existsSync(join(root, folder, 'al2023', 'lib', 'libnss3.so'))).toBe(true);
      expect(readdirSync(root)).toEqual([folder]);
    },
    60_000,
  );
});
