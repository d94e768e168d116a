/**
 * Retry a database write that lost a lock race. SQLite's busy timeout already waits for a
 * lock; this covers what it cannot: a wait that outlasted the timeout, and a WAL snapshot
 * that went stale (`SQLITE_BUSY_SNAPSHOT` fails at once, whatever the timeout).
 * @module
 */
import pRetry, { AbortError } from 'p-retry';

/** Options of {@link withBusyRetry}. */
export type BusyRetryOptions = {
  /** Retries after the first attempt. */
  retries?: number;
  /** Delay before the first retry, doubled (with jitter) up to `maxTimeoutMs`. */
  minTimeoutMs?: number;
  maxTimeoutMs?: number;
  signal?: AbortSignal;
};

// Primary result codes: the low byte of an extended code (SQLITE_BUSY_SNAPSHOT = 517 → 5).
const SQLITE_BUSY = 5;
const SQLITE_LOCKED = 6;

/**
 * Whether `error`, or an error in its `cause` chain, is SQLITE_BUSY or SQLITE_LOCKED
 * (including their extended codes). drizzle wraps libsql's `LibsqlError` in a
 * `DrizzleQueryError`, whose `cause` carries `code: 'SQLITE_BUSY'` and `rawCode: 5`.
 */
export function isBusyError(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Object && depth < 8; e = (e as { cause?: unknown }).cause, depth += 1) {
    const { code, rawCode } = e as { code?: unknown; rawCode?: unknown };
    if (typeof code === 'string' && /^SQLITE_(BUSY|LOCKED)(_|$)/.test(code)) return true;
    if (typeof rawCode === 'number' && ((rawCode & 0xff) === SQLITE_BUSY || (rawCode & 0xff) === SQLITE_LOCKED)) {
      return true;
    }
  }
  return false;
}

/**
 * Run `fn`, retrying it with exponential backoff while it fails with a busy/locked error;
 * any other error rejects at once, unchanged. `fn` must be safe to repeat: make it one
 * statement or one whole transaction.
 */
export async function withBusyRetry<T>(
  fn: (attempt: number) => Promise<T>,
  { retries = 5, minTimeoutMs = 50, maxTimeoutMs = 2_000, signal }: BusyRetryOptions = {},
): Promise<T> {
  return pRetry(
    async (attempt) => {
      try {
        return await fn(attempt);
      } catch (error) {
        if (isBusyError(error)) throw error;
        throw new AbortError(error instanceof Error ? error : new Error(String(error)));
      }
    },
    { retries, factor: 2, minTimeout: minTimeoutMs, maxTimeout: maxTimeoutMs, randomize: true, signal },
  );
}
