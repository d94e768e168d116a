/**
 * The access tokens of OAuth upstreams (issue 23): read from the keystore, refreshed a little
 * before they expire and after a 401, one refresh at a time per server (a rotating refresh
 * token must never be spent twice). A refresh the authorization server refuses for good
 * (`invalid_grant`, `invalid_client`, `unauthorized_client`) forgets the tokens and fails with
 * {@link NeedsAuthorizationError}; any other failure is a connect failure, retried with backoff.
 * The token requests are the SDK's (`refreshAuthorization`), over the guarded fetch.
 * @module
 */
import { discoverOAuthServerInfo, refreshAuthorization } from '@modelcontextprotocol/sdk/client/auth.js';
import {
  InvalidClientError,
  InvalidGrantError,
  UnauthorizedClientError,
} from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
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
};

/** The tokens of every OAuth upstream. */
export type TokenKeeper = {
  /** The access token to send now (refreshed first when due); null when none is stored. */
  accessToken(server: string): Promise<string | null>;
  /** After a 401 to `used`: the token refreshed (once, whoever asked first). */
  refreshAfter(server: string, used: string): Promise<string>;
  /** Discover the authorization server the upstream names; keeps the metadata URL for the flow. */
  discover(server: string, serverUrl: string, resourceMetadataUrl: URL | undefined): Promise<string>;
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

/** Refresh this long before expiry: a quarter of the token's life, at most 60 s. */
const earlyBy = (lifetimeMs: number | undefined) => Math.min(60_000, (lifetimeMs ?? 0) / 4);

const REFUSED_FOR_GOOD = [InvalidGrantError, InvalidClientError, UnauthorizedClientError];

/** Create the keeper. */
export function createTokenKeeper({ store, secrets, config, fetchFor, now = Date.now }: TokenKeeperDeps): TokenKeeper {
  const refreshing = new Map<string, Promise<string>>();

  const refreshNow = async (server: string): Promise<string> => {
    const entry = config(server);
    const record = await store.read(server);
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
        await store.update(server, ({ tokens: _t, expiresAt: _e, lifetimeMs: _l, ...rest }) => rest);
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

  const refresh = (server: string): Promise<string> => {
    const running = refreshing.get(server);
    if (running) return running;
    const started = refreshNow(server).finally(() => refreshing.delete(server));
    refreshing.set(server, started);
    return started;
  };

  return {
    async accessToken(server) {
      const running = refreshing.get(server);
      if (running) return running;
      const record = await store.read(server);
      const tokens = record.tokens;
      if (!tokens) return null;
      const due = record.expiresAt !== undefined && now() >= record.expiresAt - earlyBy(record.lifetimeMs);
      return due && tokens.refresh_token ? refresh(server) : tokens.access_token;
    },
    async refreshAfter(server, used) {
      const running = refreshing.get(server);
      if (running) return running;
      const current = (await store.read(server)).tokens?.access_token;
      // Another request refreshed it meanwhile: use that one, spend nothing.
      if (current && current !== used) return current;
      return refresh(server);
    },
    async discover(server, serverUrl, resourceMetadataUrl) {
      const info = await discoverOAuthServerInfo(serverUrl, { resourceMetadataUrl, fetchFn: fetchFor(serverUrl) });
      if (resourceMetadataUrl)
        await store.update(server, (record) => ({ ...record, resourceMetadataUrl: resourceMetadataUrl.href }));
      return String(info.authorizationServerUrl);
    },
  };
}
