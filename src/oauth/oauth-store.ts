/**
 * What boternity keeps of one upstream's OAuth authorization (issue 23): its tokens, the client
 * it registered (or was given), and what discovery found; one keystore entry per server
 * (`oauth.<server>`), so all of it is encrypted at rest with the other credentials and never
 * written to the config, a log or the audit.
 * @module
 */
import { createHash } from 'node:crypto';
import type { OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';

/** The keystore as this part uses it (the secrets stay there; nothing is cached in memory). */
export type SecretStore = {
  get(name: string): Promise<string | null>;
  set(name: string, secret: string): Promise<void>;
  remove(name: string): Promise<boolean>;
};

/** One server's authorization, as stored. */
export type OAuthRecord = {
  readonly tokens?: OAuthTokens | undefined;
  /** When the access token expires (ms since the epoch), from `expires_in` at the time it came. */
  readonly expiresAt?: number | undefined;
  /** How long the access token was given for, in ms (the refresh is due a fraction of it early). */
  readonly lifetimeMs?: number | undefined;
  readonly client?: OAuthClientInformationMixed | undefined;
  readonly discovery?: OAuthDiscoveryState | undefined;
  /**
   * The upstream URL the tokens were issued for: they are sent to that URL only (a server
   * whose URL changed, or a new server given a removed one's name, must not get them).
   */
  readonly serverUrl?: string | undefined;
  /** The resource metadata URL the upstream's last 401 named (RFC 9728 `resource_metadata`). */
  readonly resourceMetadataUrl?: string | undefined;
  /** The `scope` the upstream's last 401 asked for (RFC 6750): what a flow asks by default. */
  readonly challengeScope?: string | undefined;
};

/** Read, change and forget servers' records. */
export type OAuthStore = {
  read(server: string): Promise<OAuthRecord>;
  /** Apply `change` to the record (read afresh) and store the result. */
  update(server: string, change: (record: OAuthRecord) => OAuthRecord): Promise<OAuthRecord>;
  /** Forget the record; false when there was none. */
  forget(server: string): Promise<boolean>;
  /** The record as the keystore holds it now (another replica may have written it), kept as the cache. */
  reload(server: string): Promise<OAuthRecord>;
  /** Drop the cached record: another replica wrote a new one (cluster mode). */
  drop(server: string): void;
  /** Call `listener` after each write of this store (cluster mode tells the other replicas). */
  onWrite(listener: (server: string) => void): void;
};

const KEYSTORE_NAME = /^[A-Za-z0-9_.-]{1,58}$/;

/** The keystore entry of `server`: `oauth.<server>`, or a digest of a name the keystore would refuse. */
export function recordName(server: string): string {
  if (KEYSTORE_NAME.test(server)) return `oauth.${server}`;
  return `oauth.${createHash('sha256').update(server, 'utf8').digest('hex').slice(0, 40)}`;
}

/**
 * Store records in `secrets`; one update at a time per server in this process, so a refresh
 * never loses a registration (across replicas, the keeper's fleet-wide lock orders refreshes).
 */
export function createOAuthStore({ secrets }: { secrets: SecretStore }): OAuthStore {
  const queues = new Map<string, Promise<unknown>>();
  // Read once, then kept: every request of an HTTP upstream asks for its token (no keystore read
  // and decryption on the call path). In cluster mode another replica's write drops it (`drop`).
  const cache = new Map<string, OAuthRecord>();
  const listeners: ((server: string) => void)[] = [];
  const written = (server: string) => {
    for (const listener of listeners) listener(server);
  };
  const load = async (server: string): Promise<OAuthRecord> => {
    const text = await secrets.get(recordName(server));
    if (!text) return {};
    try {
      return JSON.parse(text) as OAuthRecord;
    } catch {
      // A damaged record is as good as none: the server asks for an authorization again.
      return {};
    }
  };
  const read = async (server: string): Promise<OAuthRecord> => {
    const kept = cache.get(server);
    if (kept) return kept;
    const record = await load(server);
    cache.set(server, record);
    return record;
  };
  const serial = <T>(server: string, work: () => Promise<T>): Promise<T> => {
    const before = queues.get(server) ?? Promise.resolve();
    const run = before.then(work, work);
    const tail = run.catch(() => undefined);
    queues.set(server, tail);
    void tail.then(() => {
      if (queues.get(server) === tail) queues.delete(server);
    });
    return run;
  };
  return {
    read,
    update: (server, change) =>
      serial(server, async () => {
        const next = change(await load(server));
        await secrets.set(recordName(server), JSON.stringify(next));
        cache.set(server, next);
        written(server);
        return next;
      }),
    forget: (server) =>
      serial(server, async () => {
        cache.set(server, {});
        const had = await secrets.remove(recordName(server));
        written(server);
        return had;
      }),
    reload: async (server) => {
      const record = await load(server);
      cache.set(server, record);
      return record;
    },
    drop: (server) => {
      cache.delete(server);
    },
    onWrite: (listener) => {
      listeners.push(listener);
    },
  };
}
