/**
 * Where boternity's own files are (the migrations, later the UI's assets), whether the
 * code runs compiled from `dist/` or as TypeScript sources (tests).
 * @module
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The folder of boternity's package.json: the nearest one above `from` (`dist/` has none). */
export function packageRoot(from: string = fileURLToPath(import.meta.url)): string {
  let dir = dirname(from);
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no package.json above ${from}`);
    dir = parent;
  }
  return dir;
}
