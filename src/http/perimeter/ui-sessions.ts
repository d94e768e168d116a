/**
 * Sign-in sessions of the web UI (SPEC A3): one-time sign-in codes (the link `bnity serve`
 * prints) and the sessions they open. Kept in memory only, so every session ends when the
 * service stops (ADR 011). A session id and its CSRF token are random 256-bit values; the
 * store keys sessions and codes by their SHA-256, so it never holds a usable secret as a key.
 * @module
 */
import { createHash, randomBytes } from 'node:crypto';

/** One signed-in browser. `id` goes into the cookie, `csrfToken` into the page's writes. */
export type UiSession = { readonly id: string; readonly csrfToken: string; readonly expiresAt: number };

/** The store. */
export type UiSessions = {
  /** A new one-time sign-in code; it opens one session, once, within `codeTtlMs`. */
  issueCode(): { code: string; expiresAt: number };
  /** Open a session with a code, which is then spent; null for an unknown, spent or expired code. */
  redeem(code: string): UiSession | null;
  /** Open a session (after the admin token was checked). */
  open(): UiSession;
  /** The live session with this id, its expiry pushed back; null when unknown or expired. */
  find(id: string): UiSession | null;
  /** End a session (sign-out); false when there was none. */
  end(id: string): boolean;
};

/** Options of {@link createUiSessions}. */
export type UiSessionsOptions = {
  now?: () => number;
  /** A session unused this long ends (default 12 hours). */
  idleMs?: number;
  /** At most this many live sessions; the least recently used ends first (default 32). */
  maxSessions?: number;
  /** At most this many unspent codes; the oldest is dropped first (default 8). */
  maxCodes?: number;
  /**
   * How long a sign-in code is good for (default an hour): a link left in a terminal's
   * scrollback or a log does not stay a way in (`bnity ui` prints a new one).
   */
  codeTtlMs?: number;
};

/** How long a sign-in link is good for. */
export const SIGN_IN_CODE_TTL_MS = 60 * 60 * 1000;

const secret = () => randomBytes(32).toString('base64url');
const keyOf = (value: string) => createHash('sha256').update(value, 'utf8').digest('base64url');

/** Create an empty store. */
export function createUiSessions({
  now = Date.now,
  idleMs = 12 * 60 * 60 * 1000,
  maxSessions = 32,
  maxCodes = 8,
  codeTtlMs = SIGN_IN_CODE_TTL_MS,
}: UiSessionsOptions = {}): UiSessions {
  // Map order is insertion order: re-inserting on use keeps the least recently used first.
  const sessions = new Map<string, { id: string; csrfToken: string; expiresAt: number }>();
  /** Unspent codes by their hash, with when each expires. */
  const codes = new Map<string, number>();

  const open = (): UiSession => {
    const session = { id: secret(), csrfToken: secret(), expiresAt: now() + idleMs };
    sessions.set(keyOf(session.id), session);
    for (const key of sessions.keys()) {
      if (sessions.size <= maxSessions) break;
      sessions.delete(key);
    }
    return { ...session };
  };

  return {
    issueCode() {
      const code = secret();
      const expiresAt = now() + codeTtlMs;
      codes.set(keyOf(code), expiresAt);
      for (const key of codes.keys()) {
        if (codes.size <= maxCodes) break;
        codes.delete(key);
      }
      return { code, expiresAt };
    },
    redeem(code) {
      const key = keyOf(code);
      const expiresAt = codes.get(key);
      codes.delete(key);
      return expiresAt !== undefined && expiresAt > now() ? open() : null;
    },
    open,
    find(id) {
      const key = keyOf(id);
      const session = sessions.get(key);
      if (!session) return null;
      sessions.delete(key);
      if (session.expiresAt <= now()) return null;
      session.expiresAt = now() + idleMs;
      sessions.set(key, session);
      return { ...session };
    },
    end(id) {
      return sessions.delete(keyOf(id));
    },
  };
}
