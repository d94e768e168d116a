import type { Caller } from '../guard/caller.js';
import type { Db } from './create-db.js';
import { findLiveToken, touchToken } from './token-repo.js';

/**
 * Verify API tokens against the database on every request, so a revocation holds from the
 * next request on, inside open MCP sessions too. `last_used_at` is written at most once a
 * minute per token.
 */
export function createTokenVerifier(
  db: Db,
  { now = Date.now, onError }: { now?: () => number; onError?: (e: unknown) => void } = {},
) {
  const touched = new Map<string, number>();
  return async (token: string): Promise<Caller | null> => {
    if (!token.startsWith('bnt_')) return null;
    const row = await findLiveToken(db, token);
    if (!row) return null;
    const at = now();
    if ((touched.get(row.id) ?? 0) < at - 60_000) {
      touched.set(row.id, at);
      void touchToken(db, row.id, new Date(at)).catch((error: unknown) => onError?.(error));
    }
    return row.bot
      ? { kind: 'bot', slug: row.bot, tokenId: row.id }
      : { kind: 'client', tokenId: row.id, name: row.name };
  };
}
