/**
 * The admin token (SPEC section 7): `BOTERNITY_ADMIN_TOKEN`, else a token generated on
 * first run into `$BOTERNITY_HOME/admin-token` with mode 0600.
 * @module
 */
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Where the admin token lives in a home directory. */
export const adminTokenPath = (home: string): string => join(home, 'admin-token');

/** Where the token came from, so `bnity serve` can say so. */
export type AdminToken = { token: string; source: 'env' | 'file'; path: string | null };

/** Read the admin token, creating the file on first run. */
export async function ensureAdminToken(home: string, env: NodeJS.ProcessEnv = process.env): Promise<AdminToken> {
  const fromEnv = env.BOTERNITY_ADMIN_TOKEN?.trim();
  if (fromEnv) return { token: fromEnv, source: 'env', path: null };
  const path = adminTokenPath(home);
  const existing = await readAdminToken(home);
  if (existing) return { token: existing, source: 'file', path };
  await mkdir(home, { recursive: true, mode: 0o700 });
  const token = `bnt_admin_${randomBytes(24).toString('base64url')}`;
  try {
    await writeFile(path, `${token}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    // Another process created it first: use theirs.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST')
      return { token: (await readAdminToken(home)) ?? token, source: 'file', path };
    throw error;
  }
  await chmod(path, 0o600);
  return { token, source: 'file', path };
}

/** Read the token file if there is one (the CLI uses this to talk to a running service). */
export async function readAdminToken(home: string): Promise<string | null> {
  try {
    const text = (await readFile(adminTokenPath(home), 'utf8')).trim();
    return text.length > 0 ? text : null;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
