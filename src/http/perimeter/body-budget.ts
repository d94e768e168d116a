/**
 * The bytes of request bodies one token may have in the service at once (issue 17, ADR 022
 * §6): a POST to the MCP endpoints holds its declared length from before its body is read
 * until its answer is done. One that does not fit waits, unread, its turn (its client's
 * upload stalls in the socket: TCP's own backpressure, no CPU of ours); beyond
 * `limits.inFlight.queuePerToken` waiting, or after a minute, it is refused, its body never
 * parsed. So a client firing hundreds of 4 MB requests costs the
 * service the reading, parsing and hashing of a budget's worth at a time. Small bodies (a
 * cancellation, an ordinary call) are neither counted nor held back: the in-flight caps
 * bound their number.
 * @module
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RpcRefusal } from '../io/index.js';

/** Bodies up to this size are not counted. */
export const SMALL_BODY_BYTES = 64 * 1024;
/** The longest a body waits for room before it is refused. */
const WAIT_MS = 60_000;

/** Gives the bytes back (idempotent). */
type Release = () => void;
type Waiter = { readonly bytes: number; settle(release: Release | null): void };
type Account = { held: number; readonly waiting: Waiter[] };

/** What one `take` may hold and how many may wait. */
export type BodyLimits = { readonly maxBytes: number; readonly maxWaiting: number };

/** Budgets per key (a token). */
export type BodyBudget = {
  /**
   * Hold `bytes` for `key`: a release at once, or a promise of one once earlier bodies are
   * answered (null: refused, for `maxWaiting` already waiting, the wait's end, or `signal`).
   * A body alone always fits: the budget bounds how many are in at once, not their size.
   */
  take(key: string, bytes: number, limits: BodyLimits, signal: AbortSignal): Release | Promise<Release | null> | null;
  /** Bytes held for `key` now. */
  held(key: string): number;
};

/** An empty set of budgets. */
export function createBodyBudget({ waitMs = WAIT_MS }: { waitMs?: number } = {}): BodyBudget {
  const accounts = new Map<string, Account>();
  let maxBytes = Number.POSITIVE_INFINITY;
  const hold = (key: string, account: Account, bytes: number): Release => {
    account.held += bytes;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      account.held -= bytes;
      // The next in line, in order, while they fit.
      for (let next = account.waiting[0]; next && fits(account, next.bytes); next = account.waiting[0]) {
        account.waiting.shift();
        next.settle(hold(key, account, next.bytes));
      }
      if (account.held === 0 && account.waiting.length === 0) accounts.delete(key);
    };
  };
  const fits = (account: Account, bytes: number) => account.held === 0 || account.held + bytes <= maxBytes;
  return {
    take(key, bytes, limits, signal) {
      if (bytes <= SMALL_BODY_BYTES) return noop;
      maxBytes = limits.maxBytes;
      let account = accounts.get(key);
      if (!account) {
        account = { held: 0, waiting: [] };
        accounts.set(key, account);
      }
      if (account.waiting.length === 0 && fits(account, bytes)) return hold(key, account, bytes);
      if (account.waiting.length >= limits.maxWaiting || signal.aborted) return null;
      const waiting = account.waiting;
      return new Promise<Release | null>((resolve) => {
        const giveUp = () => {
          const at = waiting.indexOf(waiter);
          if (at < 0) return;
          waiting.splice(at, 1);
          waiter.settle(null);
        };
        const timer = setTimeout(giveUp, waitMs);
        const waiter: Waiter = {
          bytes,
          settle(release) {
            clearTimeout(timer);
            signal.removeEventListener('abort', giveUp);
            resolve(release);
          },
        };
        signal.addEventListener('abort', giveUp, { once: true });
        waiting.push(waiter);
      });
    },
    held: (key) => accounts.get(key)?.held ?? 0,
  };
}

const noop: Release = () => undefined;

/** A POST refused over its token's budget: 429 (its body is not read), and the error's `data`. */
export type BodyRefusal = { readonly refusal: RpcRefusal; readonly data: Readonly<Record<string, unknown>> };

/** The refusal of a POST over its token's budget; `close`: its connection closes after it. */
export function overBudget(held: number, { maxBytes, maxWaiting }: BodyLimits, close = false): BodyRefusal {
  const setting = 'limits.inFlight.bodyBytesPerToken';
  return {
    refusal: {
      status: 429,
      code: -32000,
      message: `too many requests: this token has ${mebibytes(held)} of request bodies in the service, at its cap of ${mebibytes(maxBytes)} (${setting}), and ${maxWaiting} more waiting (limits.inFlight.queuePerToken); retry once some have answered`,
      headers: close ? { 'retry-after': '1', connection: 'close' } : { 'retry-after': '1' },
    },
    // As the in-flight caps and the rate limits say it (`tooManyRpcBody`).
    data: { retryAfterSeconds: 1, scope: 'in_flight', setting, limit: maxBytes },
  };
}

/**
 * Hold a POST's body for `key` until `res` is done, waiting for room if need be; the
 * refusal to answer with when it gets none. A refused body is never parsed: one of a
 * declared length within `maxBodyBytes` is discarded as it comes once the refusal is
 * written (node's own handling of an unread body; the client, still uploading, then reads
 * its 429 instead of a reset connection, and keeps its connection); one of unknown length
 * (chunked, counted as `maxBodyBytes`) or over the limit has its connection closed.
 */
export function holdBody(
  budget: BodyBudget,
  { req, res, key }: { req: IncomingMessage; res: ServerResponse; key: string },
  limits: BodyLimits & { readonly maxBodyBytes: number },
): BodyRefusal | null | Promise<BodyRefusal | null> {
  const declared = Number(req.headers['content-length']);
  const known = req.headers['content-length'] !== undefined && Number.isFinite(declared) && declared >= 0;
  const bytes = known ? declared : limits.maxBodyBytes;
  if (bytes <= SMALL_BODY_BYTES) return null;
  const close = !known || bytes > limits.maxBodyBytes;
  const closed = new AbortController();
  const taken = budget.take(key, bytes, limits, closed.signal);
  const settle = (release: Release | null): BodyRefusal | null => {
    if (release) {
      res.once('close', release);
      return null;
    }
    // Not taking in (and throwing away) more than a body's bound of what its client sends.
    if (close) res.once('finish', () => req.socket.destroy());
    return overBudget(budget.held(key), limits, close);
  };
  if (typeof taken === 'function' || taken === null) return settle(taken);
  // A client that gives up while it waits leaves the line.
  const abort = () => closed.abort();
  res.once('close', abort);
  return taken.then((release) => {
    res.off('close', abort);
    // Room came after all, too late for a request already gone.
    if (release && res.destroyed) {
      release();
      return null;
    }
    return settle(release);
  });
}

const mebibytes = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MiB`;
