/**
 * OAuth to upstreams (issue 23), built on first use: a config with no HTTP server never
 * loads the SDK's client auth nor oauth4webapi (the start stays as lean as ADR 015 wants).
 * The connections get `authorize` at once; the HTTP side awaits `load()` when it is built.
 * @module
 */
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Logger } from 'pino';
import type { AppConfig } from '../config/schema.js';
import type { OAuth, OAuthFleet } from '../oauth/index.js';
import type { Keystore } from '../storage/keystore.js';
import type { UpstreamAuthorizer } from '../upstream/remote-session.js';
import { createOAuthMasks } from './oauth-masks.js';

/** What {@link openOAuth} needs. */
export type OpenOAuthOptions = {
  readonly keystore: Pick<Keystore, 'get' | 'set' | 'remove'>;
  /** Each secret read or written is added here, so the log masks it (C6). */
  readonly secrets: Set<string>;
  readonly config: () => AppConfig;
  /** The service's own origin (its redirect URI's). */
  readonly origin: () => string;
  /** Tokens stored: connect the server. */
  readonly connect: (server: string) => void;
  /** Where an early refresh that failed for now is warned about. */
  readonly log?: Pick<Logger, 'warn'> | undefined;
};

/** The lazily built OAuth and the authorizer the upstream connections get. */
export function openOAuth({ keystore, secrets, config, origin, connect, log }: OpenOAuthOptions): {
  /** OAuth whose every method loads it first (the HTTP side's routes). */
  lazy: OAuth;
  authorize: UpstreamAuthorizer;
  /**
   * Servers removed from the config: their tokens are revoked (when offered) and forgotten, so
   * a later server of the same name starts with none. Only when OAuth is loaded: an HTTP server
   * that ran since the start loaded it; one that never connected is still guarded by the
   * record's URL binding, and `bnity mcp auth NAME --revoke` forgets it.
   */
  forgetRemoved(servers: readonly string[]): Promise<Array<{ server: string; error: unknown }>>;
} {
  let built: Promise<OAuth> | null = null;
  let loaded: OAuth | null = null;
  let fleet: OAuthFleet | null = null;
  let leave: Promise<() => Promise<void>> | null = null;
  // Joined once, by whichever comes second: the load or the fleet.
  const join = (oauth: OAuth) => {
    if (fleet) leave ??= oauth.joinFleet(fleet);
    return leave;
  };
  const mask = createOAuthMasks(secrets);
  const masked = async (name: string, value: string | null) => {
    if (value) mask(name, value);
    return value;
  };
  const load = () => {
    built ??= import('../oauth/index.js')
      .then(({ createOAuth }) =>
        createOAuth({
          secrets: {
            get: async (name) => masked(name, await keystore.get(name)),
            set: async (name, value) => {
              mask(name, value);
              await keystore.set(name, value);
            },
            remove: (name) => keystore.remove(name),
          },
          server: (name) => config().mcpServers[name],
          origin,
          onAuthorized: connect,
          onEarlyRefreshFailed: (server, error) =>
            log?.warn(
              { server, err: error },
              'upstream OAuth: an early token refresh failed; the access token still valid is used, the refresh tried again in 5 s',
            ),
        }),
      )
      .then(async (oauth) => {
        await join(oauth);
        return oauth;
      });
    void built.then((oauth) => {
      loaded = oauth;
    });
    return built;
  };
  const authorize: UpstreamAuthorizer = (options) => (inner) => {
    let wrapped: FetchLike | null = null;
    return async (url, init) => {
      wrapped ??= (await load()).authorize(options)(inner);
      return wrapped(url, init);
    };
  };
  const lazy: OAuth = {
    flows: {
      start: async (options) => (await load()).flows.start(options),
      finish: async (redirect, by) => (await load()).flows.finish(redirect, by),
      wait: async (state, owner, signal) => (await load()).flows.wait(state, owner, signal),
      // A callback loads OAuth: in cluster mode another replica may hold the flow.
      startedInUi: async (state) => (await load()).flows.startedInUi(state),
      holds: (state) => loaded?.flows.holds(state) ?? null,
    },
    revoke: async (server) => (await load()).revoke(server),
    authorize: () => {
      throw new Error('the upstream connections use the authorizer');
    },
    clientMetadata: async () => (await load()).clientMetadata(),
    // Cluster mode: OAuth joins the fleet once loaded (at once when it is); a replica that never
    // loads it holds no flow, no record and no server waiting for one.
    joinFleet: async (given) => {
      fleet = given;
      if (built) await built.then(join);
      return async () => {
        await (await leave)?.();
      };
    },
  };
  const forgetRemoved = async (servers: readonly string[]) => {
    if (built === null) return [];
    const oauth = await built;
    const failed: Array<{ server: string; error: unknown }> = [];
    for (const server of servers) {
      // Added back meanwhile: its record is bound to its URL, and kept.
      if (config().mcpServers[server] !== undefined) continue;
      await oauth.revoke(server).catch((error: unknown) => failed.push({ server, error }));
    }
    return failed;
  };
  return { lazy, authorize, forgetRemoved };
}
