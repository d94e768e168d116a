// Unpacks the headless Chromium of @sparticuz/chromium into os.tmpdir(), which the parent
// points (TMPDIR) at a private staging folder: the package always unpacks into tmpdir(), and
// doing it in a child keeps that from touching the parent's own TMPDIR.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import chromium, { inflate } from '@sparticuz/chromium';

// The browser, its fonts and the software GL it falls back to.
await chromium.executablePath();
// The NSS, NSPR and expat libraries the binary links: the package unpacks them only on AWS,
// yet a slim Linux image lacks them too.
const bin = fileURLToPath(new URL('../bin/', import.meta.resolve('@sparticuz/chromium')));
await inflate(join(bin, 'al2023.tar.br'));
