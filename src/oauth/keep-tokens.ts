/**
 * The access tokens of OAuth upstreams (issue 23): read from the keystore, refreshed a little
 * before they expire and after a 401, one refresh at a time per server (a rotating refresh
 * token must never be spent twice). A refresh the authorization server refuses for good
 * (`invalid_grant`, `invalid_client`, `unauthorized_client`) forgets the tokens and fails with
 * {@link NeedsAuthorizationError}; any other failure is a connect failure, retried with backoff —
 * except an early refresh of a token still in its life, which sends that token meanwhile.
 * The token requests are the SDK's (`refreshAuthorization`), over the guarded fetch. In cluster
 * mode a refresh runs in a fleet-wide section (`exclusive`) and reads the record afresh in it: a
 * replica that waited uses the token another one just got instead of spending the refresh token
 * again (a rotating server revokes the grant on a reuse).
 * @module
 */
import { discoverOAuthServerInfo, refreshAuthorization } from '@modelcontextprotocol/sdk/client/auth.js';
import {
  InvalidClientError,
  InvalidGrantError,
  UnauthorizedClientError,
} from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { checkResourceAllowed, resourceUrlFromServerUrl } from '@modelcontextprotocol/sdk/shared/auth-utils.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { RemoteServerConfig } from '../config/schema.js';
import { HubError, NeedsAuthorizationError } from '../errors.js';
import { configuredClient } from './flow-provider.js';
import type { OAuthRecord, OAuthStore, SecretStore } from './oauth-store.js';

/** What {@link createTokenKeeper} needs. */
export type TokenKeeperDeps = {
  readonly store: OAuthStore;
  readonly secrets: Pick<SecretStore, 'get'>;
  /** The server's entry now (null: no longer an HTTP server). */
  readonly config: (server: string) => RemoteServerConfig | null;
  /** The guarded fetch for an upstream at this URL. */
  readonly fetchFor: (serverUrl: string) => FetchLike;
  readonly now?: (() => number) | undefined;
  /**
   * The section one refresh of a server runs in (cluster mode: a PostgreSQL advisory lock, so
   * one replica refreshes at a time fleet-wide); null or absent: this process's single flight only.
   */
  readonly exclusive?: (() => Exclusive | null) | undefined;
  /** An early refresh failed for now and the token still in its life was sent (for the log). */
  readonly onEarlyRefreshFailed?: ((server: string, error: unknown) => void) | undefined;
};

/** Run `work` while no other holder of `server`'s section runs (resolves with what it did). */
export type Exclusive = <T>(server: string, work: () => Promise<T>) => Promise<T>;

/** The tokens of every OAuth upstream. */
export type TokenKeeper = {
  /**
   * The access token to send to `serverUrl` now (refreshed first when due); null when none is
   * stored. Tokens issued for another URL fail with {@link NeedsAuthorizationError}.
   */
  accessToken(server: string, serverUrl: string): Promise<string | null>;
  /** After a 401 to `used`: the token refreshed (once, whoever asked first). */
  refreshAfter(server: string, used: string, serverUrl: string): Promise<string>;
  /**
   * Discover the authorization server the upstream names; keeps the metadata URL for the flow.
   * `bare`: the 401 named no metadata and the entry has no `oauth`: resolves null unless the
   * upstream serves RFC 9728 metadata at its well-known URL (no guessing from the origin).
   */
  discover(
    server: string,
    serverUrl: string,
    resourceMetadataUrl: URL | undefined,
    bare?: boolean,
    /** The 401's `scope`, kept for the flow to ask by default. */
    challengeScope?: string,
  ): Promise<string | null>;
};

/** The record's token fields for tokens that came `at`. */
export function tokenFields(tokens: OAuthTokens, issuer: string, at: number): Partial<OAuthRecord> {
  const lifetimeMs = typeof tokens.expires_in === 'number' ? tokens.expires_in * 1000 : undefined;
  return {
    tokens: { ...tokens, issuer },
    expiresAt: lifetimeMs === undefined ? undefined : at + lifetimeMs,
    lifetimeMs,
  };
}

/**
 * Refuse a record issued for another upstream URL than `serverUrl`. A record written before
 * the URL was kept is judged by its RFC 9728 `resource` (it must cover the URL, as the SDK
 * checks at the authorization); one with neither is refused.
 */
export function checkBinding(server: string, record: OAuthRecord, serverUrl: string): void {
  const resource = record.discovery?.resourceMetadata?.resource;
  const bound =
    record.serverUrl !== undefined
      ? record.serverUrl === serverUrl
      : resource !== undefined &&
        checkResourceAllowed({ requestedResource: resourceUrlFromServerUrl(serverUrl), configuredResource: resource });
  if (!bound)
    throw new NeedsAuthorizationError(
      server,
      record.discovery?.authorizationServerUrl ?? null,
      `its stored authorization was given for ${record.serverUrl ?? resource ?? 'another URL'}, not ${serverUrl}`,
    );
}

/** Refresh this long before expiry: a quarter of the token's life, at most 60 s. */
const earlyBy = (lifetimeMs: number | undefined) => Math.min(60_000, (lifetimeMs ?? 0) / 4);

/**
 * After an early refresh failed for now (the authorization server down or erring, not refusing
 * the grant), the access token still in its life is sent without trying again for this long.
 */
const RETRY_EARLY_REFRESH_MS = 5_000;

const REFUSED_FOR_GOOD = [InvalidGrantError, InvalidClientError, UnauthorizedClientError];

/** Create the keeper. */
export function createTokenKeeper(deps: TokenKeeperDeps): TokenKeeper {
  const { store, secrets, config, fetchFor, now = Date.now } = deps;
  const refreshing = new Map<string, Promise<string>>();
  /** When an early refresh of a server last failed for now. */
  const earlyFailedAt = new Map<string, number>();
  const isDue = (record: OAuthRecord) =>
    record.expiresAt !== undefined && now() >= record.expiresAt - earlyBy(record.lifetimeMs);
  const isLive = (record: OAuthRecord) => record.expiresAt === undefined || now() < record.expiresAt;
  /** A failure for now (the server down or erring), not a grant refused or tokens bound elsewhere. */
  const isForNow = (error: unknown) => error instanceof HubError && !(error instanceof NeedsAuthorizationError);

  /** Refresh `server`'s tokens unless the record read in the section holds another token than `stale`. */
  const refreshNow = (server: string, serverUrl: string, stale: string | null): Promise<string> => {
    const run: Exclusive = deps.exclusive?.() ?? ((_server, work) => work());
    return run(server, () => refreshIn(server, serverUrl, stale));
  };

  const refreshIn = async (server: string, serverUrl: string, stale: string | null): Promise<string> => {
    const entry = config(server);
    // Read afresh: another replica may have refreshed while this one waited for the section.
    const record = await store.reload(server);
    if (record.tokens) checkBinding(server, record, serverUrl);
    const current = record.tokens?.access_token;
    if (current && current !== stale && !isDue(record)) return current;
    const discovery = record.discovery;
    const refreshToken = record.tokens?.refresh_token;
    const issuer = discovery?.authorizationServerUrl ?? null;
    if (!entry || !discovery || !refreshToken)
      throw new NeedsAuthorizationError(server, issuer, 'the access token expired and no refresh token was given');
    let tokens: OAuthTokens;
    try {
      const client = (await configuredClient(entry, secrets)) ?? record.client;
      if (!client) throw new InvalidClientError('no client is registered');
      tokens = await refreshAuthorization(discovery.authorizationServerUrl, {
        metadata: discovery.authorizationServerMetadata,
        clientInformation: client,
        refreshToken,
        // The metadata's string as given, as `auth()` sent it (SDK #1968): `new URL(…).href`
        // turns `https://mcp.example.com` into `…com/`, which an exact-matching server refuses.
        resource: discovery.resourceMetadata?.resource,
        fetchFn: fetchFor(entry.url),
      });
    } catch (error) {
      if (REFUSED_FOR_GOOD.some((kind) => error instanceof kind)) {
        // Only the tokens that were refused are forgotten: newer ones written meanwhile stay.
        const after = await store.update(server, (old) => {
          if (old.tokens?.refresh_token !== refreshToken) return old;
          const { tokens: _t, expiresAt: _e, lifetimeMs: _l, ...rest } = old;
          return rest;
        });
        if (after.tokens?.access_token) return after.tokens.access_token;
        const why = error instanceof Error ? error.message : String(error);
        throw new NeedsAuthorizationError(server, issuer, `the refresh was refused: ${why}`, { cause: error });
      }
      const why = error instanceof Error ? error.message : String(error);
      throw new HubError('upstream_failed', `token refresh for "${server}" at ${issuer} failed: ${why}`, {
        cause: error,
      });
    }
    const saved = await store.update(server, (old) => ({ ...old, ...tokenFields(tokens, issuer ?? '', now()) }));
    return saved.tokens?.access_token ?? tokens.access_token;
  };

  const refresh = (server: string, serverUrl: string, stale: string | null): Promise<string> => {
    const running = refreshing.get(server);
    if (running) return running;
    const started = refreshNow(server, serverUrl, stale).finally(() => refreshing.delete(server));
    refreshing.set(server, started);
    return started;
  };

  return {
    async accessToken(server, serverUrl) {
      const running = refreshing.get(server);
      if (running) return running;
      const record = await store.read(server);
      const tokens = record.tokens;
      if (!tokens) return null;
      checkBinding(server, record, serverUrl);
      if (!isDue(record) || !tokens.refresh_token) return tokens.access_token;
      const failedAt = earlyFailedAt.get(server);
      if (failedAt !== undefined && now() - failedAt < RETRY_EARLY_REFRESH_MS && isLive(record))
        return tokens.access_token;
      try {
        const fresh = await refresh(server, serverUrl, tokens.access_token);
        earlyFailedAt.delete(server);
        return fresh;
      } catch (error) {
        // Early, the token still in its life: a refresh that failed for now costs the call nothing;
        // it is tried again a little later (an expired token, or a grant refused, fails as before).
        if (!isForNow(error) || !isLive(record)) throw error;
        earlyFailedAt.set(server, now());
        deps.onEarlyRefreshFailed?.(server, error);
        return tokens.access_token;
      }
    },
    async refreshAfter(server, used, serverUrl) {
      const running = refreshing.get(server);
      if (running) return running;
      const record = await store.read(server);
      if (record.tokens) checkBinding(server, record, serverUrl);
      const current = record.tokens?.access_token;
      // Another request refreshed it meanwhile: use that one, spend nothing.
      if (current && current !== used) return current;
      return refresh(server, serverUrl, used);
    },
    async discover(server, serverUrl, resourceMetadataUrl, bare = false, challengeScope) {
      const info = bare
        ? await discoverOAuthServerInfo(serverUrl, { fetchFn: fetchFor(serverUrl) }).catch(() => null)
        : await discoverOAuthServerInfo(serverUrl, { resourceMetadataUrl, fetchFn: fetchFor(serverUrl) });
      if (info === null || (bare && !info.resourceMetadata?.authorization_servers?.length)) return null;
      // What this upstream names now (none: the well-known one), never another URL's of the same name.
      await store.update(server, (record) => ({
        ...record,
        resourceMetadataUrl: resourceMetadataUrl?.href,
        challengeScope: challengeScope || undefined,
      }));
      return String(info.authorizationServerUrl);
    },
  };
}
