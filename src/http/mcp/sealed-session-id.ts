/**
 * Session ids that carry their session (issue 22 part 3, ADR 039): with a cluster key
 * (`BOTERNITY_CLUSTER_KEY`, the same on every replica), a 2025-11-25 session's
 * `Mcp-Session-Id` is what never changes about it — the endpoint, the owner, the client's
 * `initialize` (protocol version, capabilities, name) — sealed with AES-256-GCM. Any replica
 * that gets a request of a session it does not hold opens the id and rebuilds the session as
 * if the `initialize` had just been answered there: nothing to look up, nothing to hand over
 * when a replica stops. A forged or altered id fails the tag; an id is useless to another
 * token (the owner is inside, and checked); `DELETE` ends it everywhere (`closed-sessions.ts`).
 *
 * `v1.` + base64url(IV ‖ ciphertext ‖ tag); the plaintext is JSON with a random 128-bit
 * nonce, so two sessions of one client never share an id.
 * @module
 */
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';

/** What a sealed id holds. */
export type SealedSession = {
  /** The endpoint path it was opened on (`/mcp`, `/mcp/bots/x`). */
  readonly path: string;
  /** Who opened it (`admin`, `token:ID`). */
  readonly owner: string;
  /** The client's `initialize` params, as it sent them (trimmed to what a session needs). */
  readonly initialize: {
    readonly protocolVersion: string;
    readonly capabilities: Record<string, unknown>;
    readonly clientInfo: { readonly name: string; readonly version: string; readonly [key: string]: unknown };
  };
  /** When it was opened (ms since the epoch). */
  readonly openedAt: number;
};

const PREFIX = 'v1.';
const IV = 12;
const TAG = 16;
/** Past this many bytes of plaintext, a client's capabilities keep only their names: ids stay header-sized. */
const MAX_STATE = 1024;

/** The seal of a cluster: seals ids and opens them, with a key derived from the cluster key. */
export type SessionSeal = {
  seal(session: SealedSession): string;
  /** The session of `id`; null if it is not one of ours (not sealed, forged, altered, another key). */
  open(id: string): SealedSession | null;
};

/** A seal from `clusterKey` (any length; at least 32 characters of randomness advised). */
export function createSessionSeal(clusterKey: string): SessionSeal {
  const key = Buffer.from(hkdfSync('sha256', clusterKey, 'boternity', 'mcp session id v1', 32));
  return {
    seal(session) {
      let state = JSON.stringify({ n: randomBytes(16).toString('base64url'), ...session });
      if (state.length > MAX_STATE) {
        const capabilities = Object.fromEntries(Object.keys(session.initialize.capabilities).map((k) => [k, {}]));
        const { name, version } = session.initialize.clientInfo;
        const initialize = { ...session.initialize, capabilities, clientInfo: { name, version } };
        state = JSON.stringify({ n: randomBytes(16).toString('base64url'), ...session, initialize });
      }
      const iv = randomBytes(IV);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(state, 'utf8'), cipher.final()]);
      return PREFIX + Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url');
    },
    open(id) {
      if (!id.startsWith(PREFIX) || id.length > 4096) return null;
      const bytes = Buffer.from(id.slice(PREFIX.length), 'base64url');
      if (bytes.length <= IV + TAG) return null;
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV));
        decipher.setAuthTag(bytes.subarray(bytes.length - TAG));
        const plain = Buffer.concat([decipher.update(bytes.subarray(IV, bytes.length - TAG)), decipher.final()]);
        const state = JSON.parse(plain.toString('utf8')) as SealedSession & { n?: unknown };
        return typeof state.path === 'string' && typeof state.owner === 'string' && state.initialize ? state : null;
      } catch {
        return null;
      }
    },
  };
}

/** A session id's fingerprint for the closed list: the id itself is a bearer of its session, never stored. */
export const sessionIdDigest = (id: string): string => createHash('sha256').update(id).digest('base64url');
