/**
 * OAuth 2.1 to upstream servers (issue 23, SPEC U1, U2), put together: the keystore-backed
 * records, the guarded fetch of every OAuth request, the token keeper, the flows, revocation,
 * and the fetch wrapper each HTTP upstream's session gets. Built once, in main.ts.
 * @module
 */
import type { OAuthClientMetadata } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { RemoteServerConfig, ServerConfig } from '../config/schema.js';
import type { NeedsAuthorizationError } from '../errors.js';
import { type AuthorizeFlows, callbackUrl, createAuthorizeFlows } from './authorize-flows.js';
import { createBearerFetch } from './bearer-fetch.js';
import type { LookupAll } from './check-oauth-url.js';
import { clientMetadataOf } from './flow-provider.js';
import { createGuardedFetch } from './guarded-fetch.js';
import { createTokenKeeper, type Exclusive } from './keep-tokens.js';
import { createOAuthStore, type SecretStore } from './oauth-store.js';
import { type FlowBus, relayFlows } from './relay-flows.js';
import { type Revocation, revokeAuthorization } from './revoke-authorization.js';

/** What a fleet gives OAuth (cluster mode, SPEC K4); a single service has none. */
export type OAuthFleet = {
  readonly bus: FlowBus;
  /** One refresh of a server at a time fleet-wide (a PostgreSQL advisory lock). */
  readonly exclusive: Exclusive;
  /** Another replica stored tokens for `server`: connect it here if it waits for them. */
  readonly authorizedElsewhere: (server: string) => void;
};

const RECORDS_TOPIC = 'oauth.records';

/** What {@link createOAuth} needs. */
export type OAuthDeps = {
  /** The keystore. */
  readonly secrets: SecretStore;
  /** The server entry in force of a name (undefined: none). */
  readonly server: (name: string) => ServerConfig | undefined;
  /** The service's own origin, for the redirect URI. */
  readonly origin: () => string;
  /** Tokens stored for a server: connect it now. */
  readonly onAuthorized: (server: string) => void;
  readonly lookup?: LookupAll | undefined;
  readonly now?: (() => number) | undefined;
  /** An early refresh failed for now; the token still in its life was sent (a warning in the log). */
  readonly onEarlyRefreshFailed?: ((server: string, error: unknown) => void) | undefined;
};

/** boternity's client ID metadata document. */
export type ClientMetadataDocument = OAuthClientMetadata & { client_id: string };

/** OAuth as the rest of boternity sees it. */
export type OAuth = {
  readonly flows: AuthorizeFlows;
  /** Revoke (RFC 7009, when offered) and forget a server's tokens. */
  revoke(server: string): Promise<Revocation>;
  /** The wrapper of an HTTP upstream session's fetch (the `UpstreamAuthorizer` of src/upstream). */
  authorize(options: {
    server: string;
    config: RemoteServerConfig;
    onLost: (error: NeedsAuthorizationError) => void;
  }): (inner: FetchLike) => FetchLike;
  /** The client ID metadata document served at `/oauth/client-metadata.json`. */
  clientMetadata(): Promise<ClientMetadataDocument> | ClientMetadataDocument;
  /**
   * Cluster mode: flows other replicas hold are reached over the bus, a refresh runs in the
   * fleet's section, and a record another replica wrote is read again (the cache dropped; a
   * server waiting for an authorization stored elsewhere connects). Resolves with the stop.
   */
  joinFleet(fleet: OAuthFleet): Promise<() => Promise<void>>;
};

/** Build it. */
export function createOAuth({
  secrets,
  server,
  origin,
  onAuthorized,
  lookup,
  now,
  onEarlyRefreshFailed,
}: OAuthDeps): OAuth {
  const store = createOAuthStore({ secrets });
  const fetchFor = (serverUrl: string) => createGuardedFetch({ serverUrl, lookup });
  const remote = (name: string): RemoteServerConfig | null | undefined => {
    const entry = server(name);
    if (entry === undefined) return undefined;
    return entry.transport === 'stdio' ? null : entry;
  };
  let fleet: OAuthFleet | null = null;
  const tell = (name: string, authorized: boolean) =>
    void fleet?.bus.publish(RECORDS_TOPIC, { server: name, authorized }).catch(() => undefined);
  const keeper = createTokenKeeper({
    store,
    secrets,
    config: (name) => remote(name) ?? null,
    fetchFor,
    now,
    exclusive: () => fleet?.exclusive ?? null,
    onEarlyRefreshFailed,
  });
  const local = createAuthorizeFlows({
    store,
    secrets,
    config: remote,
    fetchFor,
    origin,
    onAuthorized: (name) => {
      onAuthorized(name);
      tell(name, true);
    },
    now,
  });
  let flows: AuthorizeFlows = local;
  const joinFleet = async (given: OAuthFleet) => {
    if (fleet) return async () => undefined;
    fleet = given;
    const relay = await relayFlows(local, given.bus);
    flows = relay.flows;
    store.onWrite((name) => tell(name, false));
    const unsubscribe = await given.bus.subscribe(RECORDS_TOPIC, ({ self, payload }) => {
      const { server: name, authorized } = payload as { server?: unknown; authorized?: unknown };
      if (self || typeof name !== 'string') return;
      store.drop(name);
      if (authorized === true) given.authorizedElsewhere(name);
    });
    return async () => {
      await unsubscribe();
      await relay.stop();
    };
  };
  return {
    get flows() {
      return flows;
    },
    joinFleet,
    revoke: (name) => revokeAuthorization({ server: name, entry: remote(name), store, secrets, fetchFor }),
    authorize: ({ server: name, config, onLost }) =>
      createBearerFetch({
        server: name,
        serverUrl: config.url,
        keeper,
        configured: config.oauth !== undefined,
        onLost,
      }),
    clientMetadata: () => {
      const base = origin().replace(/\/+$/, '');
      return { client_id: `${base}/oauth/client-metadata.json`, ...clientMetadataOf(callbackUrl(base)) };
    },
  };
}
