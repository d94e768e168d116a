// Unpacks the headless Chromium of @sparticuz/chromium into os.tmpdir(), which the parent
// points (TMPDIR) at a private staging folder: the package always unpacks into tmpdir(), and
// doing it in a child keeps that from touching the parent's own TMPDIR.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import chromium from '@sparticuz/chromium';

// The package's folder: the entry lives in build/esm/, the brotli archives in bin/.
let root = dirname(fileURLToPath(import.meta.resolve('@sparticuz/chromium')));
while (!existsSync(join(root, 'bin', 'chromium.br'))) {
  if (dirname(root) === root) throw new Error('@sparticuz/chromium: no bin/chromium.br found');
  root = dirname(root);
}
// The browser, its fonts and the software GL it falls back to.
await chromium.executablePath(join(root, 'bin'));
// The NSS, NSPR and expat libraries the binary links: the package unpacks them only on AWS,
// yet a slim Linux image lacks them too. Its `inflate` is not exported by the pinned
// version's entry, so it is taken from the file that defines it.
const { inflate } = await import(pathToFileURL(join(root, 'build', 'esm', 'lambdafs.js')).href);
await inflate(join(root, 'bin', 'al2023.tar.br'));
