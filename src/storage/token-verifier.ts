import type { Logger } from 'pino';
import { StoreUnavailableError } from '../errors/storage-errors.js';
import type { Caller } from '../guard/caller.js';
import type { Db } from './create-db.js';
import { findLiveToken, touchToken } from './token-repo.js';

/** How long a token found live is taken as live without asking the database again. */
const REMEMBER_MS = 1_000;
/** Tokens remembered at most (the oldest go first past it). */
const MAX_REMEMBERED = 1_000;
/**
 * While the database does not answer, a token found live this recently is taken as it was
 * (K4: a brief outage fails no request of a client already seen); an unseen token is refused (503).
 */
const OUTAGE_GRACE_MS = 10 * 60_000;

/** The verifier and its memory: `forget` one token (revoked just now), `clear` them all. */
export type TokenVerifier = ((token: string) => Promise<Caller | null>) & { forget(id: string): void; clear(): void };

/** The bots' changes, as their bus carries them (on every replica in a fleet): a `deleted` bot's tokens are revoked. */
type BotChanges = { subscribe(listener: (envelope: { event: { kind: string; slug: string } }) => void): unknown };

type Remembered = { readonly caller: Caller; readonly id: string; readonly at: number };

/**
 * Verify API tokens against the database, so a revocation holds from the next request on,
 * inside open MCP sessions too. A token found live is remembered for a second (a client
 * sending hundreds of requests a second costs one query a second, issue 17); a revocation
 * made through this service forgets it at once (`forget`), one made elsewhere holds within
 * that second unless the fleet bus says it sooner (`src/cluster/share-revocations.ts`).
 * `last_used_at` is written at most once a minute per token.
 */
export function createTokenVerifier(
  db: Db,
  {
    now = Date.now,
    onError,
    botChanges,
    timeoutMs = () => 2_000,
    log,
  }: {
    now?: () => number;
    onError?: (e: unknown) => void;
    botChanges?: BotChanges;
    /** How long a lookup may take before the database counts as not answering. */
    timeoutMs?: () => number;
    /** Where the start and the end of an outage are said, once each (and a use not recorded, without `onError`). */
    log?: Pick<Logger, 'warn' | 'info'>;
  } = {},
): TokenVerifier {
  let outage = false;
  /** The token's row, or a rejection with StoreUnavailableError when the database fails or is slow. */
  const lookUp = async (token: string) => {
    let timer: NodeJS.Timeout | undefined;
    const slow = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs()} ms`)), timeoutMs());
    });
    try {
      const row = await Promise.race([findLiveToken(db, token), slow]);
      if (outage) log?.info('the database answers token lookups again');
      outage = false;
      return row;
    } catch (error) {
      if (!outage)
        log?.warn(
          `the database does not answer token lookups: tokens seen in the last ${OUTAGE_GRACE_MS / 60_000} minutes are taken as they were, others refused (503), until it answers`,
        );
      outage = true;
      throw new StoreUnavailableError('checking a token', { cause: error });
    } finally {
      clearTimeout(timer);
    }
  };
  const touched = new Map<string, number>();
  const remembered = new Map<string, Remembered>();
  // Refused tokens too, for as long: a client retrying a revoked or mistyped token in a loop
  // costs one query a second, not one a request. No token can become valid meanwhile (a new
  // one is random; a revoked one stays revoked).
  const refused = new Map<string, number>();
  const verify = async (token: string): Promise<Caller | null> => {
    if (!token.startsWith('bnt_')) return null;
    const at = now();
    const known = remembered.get(token);
    if (known && at - known.at < REMEMBER_MS) return known.caller;
    const refusedAt = refused.get(token);
    if (refusedAt !== undefined && at - refusedAt < REMEMBER_MS) return null;
    let row: Awaited<ReturnType<typeof findLiveToken>>;
    try {
      row = await lookUp(token);
    } catch (error) {
      if (known && at - known.at < OUTAGE_GRACE_MS) return known.caller;
      throw error;
    }
    if (!row) {
      remembered.delete(token);
      refused.delete(token);
      if (refused.size >= MAX_REMEMBERED) refused.delete(refused.keys().next().value as string);
      refused.set(token, at);
      return null;
    }
    refused.delete(token);
    if ((touched.get(row.id) ?? 0) < at - 60_000) {
      touched.set(row.id, at);
      void touchToken(db, row.id, new Date(at)).catch((error: unknown) =>
        onError ? onError(error) : log?.warn({ err: error }, 'token use not recorded'),
      );
    }
    const caller: Caller = row.bot
      ? { kind: 'bot', slug: row.bot, tokenId: row.id }
      : { kind: 'client', tokenId: row.id, name: row.name };
    remembered.delete(token);
    if (remembered.size >= MAX_REMEMBERED) remembered.delete(remembered.keys().next().value as string);
    remembered.set(token, { caller, id: row.id, at });
    return caller;
  };
  // A deleted bot's tokens were revoked with it (`deleteBot`): none is taken as live from memory.
  botChanges?.subscribe(({ event }) => {
    if (event.kind !== 'deleted') return;
    for (const [token, known] of remembered)
      if (known.caller.kind === 'bot' && known.caller.slug === event.slug) remembered.delete(token);
  });
  return Object.assign(verify, {
    forget(id: string) {
      for (const [token, known] of remembered) if (known.id === id) remembered.delete(token);
    },
    /** Forget every token: revocations may have been missed (a fleet bus that listens again). */
    clear() {
      remembered.clear();
      refused.clear();
    },
  });
}
