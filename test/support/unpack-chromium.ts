/**
 * The headless Chromium that the `@sparticuz/chromium` devDependency ships (Linux x64 only),
 * unpacked once per package version into a folder of the temp dir and reused from then on.
 * @module
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { withFileLock } from '../../src/config/with-file-lock.js';

const INFLATE = fileURLToPath(new URL('./inflate-chromium.mjs', import.meta.url));
// The package exports only its entry (build/esm/index.js), not its package.json.
const PACKAGE_JSON = packageJsonOf(createRequire(import.meta.url).resolve('@sparticuz/chromium'));

function packageJsonOf(entry: string): string {
  for (let dir = dirname(entry); dirname(dir) !== dir; dir = dirname(dir)) {
    const candidate = join(dir, 'package.json');
    if (existsSync(candidate) && JSON.parse(readFileSync(candidate, 'utf8')).name === '@sparticuz/chromium')
      return candidate;
  }
  throw new Error(`@sparticuz/chromium: no package.json above ${entry}`);
}

/** A browser ready to launch: its executable and the environment it needs beyond ours. */
export type UnpackedChromium = { path: string; version: string; env: Record<string, string> };

/**
 * Returns the package's Chromium, unpacking it first if this version is not unpacked yet.
 * Safe from several processes at once: one unpacks (a few seconds of CPU) while the others
 * wait for it, and the folder appears by a rename, so a folder that exists is complete.
 */
export async function unpackChromium(root = tmpdir()): Promise<UnpackedChromium> {
  const version = (JSON.parse(readFileSync(PACKAGE_JSON, 'utf8')) as { version: string }).version;
  if (process.platform !== 'linux' || process.arch !== 'x64')
    throw new Error(
      `@sparticuz/chromium ${version} ships a Chromium for Linux x64 only, not ${process.platform}-${process.arch}: install Chromium or Chrome, or set BOTERNITY_CHROMIUM=/path/to/chromium`,
    );
  // Per user as well as per version: another user's folder in a shared /tmp is not ours to run.
  const home = join(root, `boternity-chromium-${version}-u${process.getuid?.() ?? 0}`);
  if (!existsSync(home)) await unpackOnce(home);
  const libs = join(home, 'al2023', 'lib');
  return {
    path: join(home, 'chromium'),
    version,
    env: {
      LD_LIBRARY_PATH: [libs, process.env.LD_LIBRARY_PATH].filter(Boolean).join(':'),
      FONTCONFIG_FILE: join(home, 'fonts.conf'),
    },
  };
}

async function unpackOnce(home: string): Promise<void> {
  // The others wait for the holder's few seconds of unpacking; a lock left by a killed
  // process goes stale and is taken over.
  await withFileLock(
    home,
    async () => {
      if (existsSync(home)) return;
      // Staging folders of a run killed mid-unpack: only the lock holder makes them.
      const parent = dirname(home);
      const prefix = `${basename(home)}.part-`;
      for (const name of await readdir(parent)) {
        if (name.startsWith(prefix)) await rm(join(parent, name), { recursive: true, force: true });
      }
      const staging = await mkdtemp(join(parent, prefix));
      try {
        await promisify(execFile)(process.execPath, [INFLATE], { env: { ...process.env, TMPDIR: staging } });
        await writeFile(join(staging, 'fonts.conf'), fontsConf(home));
        await rename(staging, home);
      } catch (error) {
        await rm(staging, { recursive: true, force: true });
        throw error;
      }
    },
    { waitMs: 120_000, staleMs: 30_000 },
  );
}

// The machine's own fonts when it has a font configuration, and the package's Open Sans in
// any case, so a machine without fonts still renders text (the package's fonts.conf names
// /tmp/fonts, which is not where this copy lives).
function fontsConf(home: string): string {
  return `<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig>
  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>
  <dir>${join(home, 'fonts', 'fonts')}</dir>
  <cachedir>${join(home, 'fonts-cache')}</cachedir>
</fontconfig>
`;
}
