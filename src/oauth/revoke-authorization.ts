/**
 * `bnity mcp auth NAME --revoke` (issue 23): the refresh token (then the access token) revoked
 * at the authorization server when it offers RFC 7009 revocation (oauth4webapi's request, over
 * the guarded fetch: the SDK has none), then the server's tokens forgotten whatever it answered.
 * The registered client is forgotten too, so the next authorization starts clean. A server no
 * longer in the config (`entry` undefined) is revoked with the client and URL its record kept.
 * @module
 */
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import * as oauth from 'oauth4webapi';
import type { RemoteServerConfig } from '../config/schema.js';
import { configuredClient } from './flow-provider.js';
import type { OAuthStore, SecretStore } from './oauth-store.js';

/** What a revocation did. */
export type Revocation = {
  /** Tokens were stored (and are now forgotten). */
  readonly forgotten: boolean;
  /** The authorization server revoked them (false: it offers no revocation, or refused). */
  readonly revoked: boolean;
  /** Why it did not revoke, in one line; null when it did or there was nothing. */
  readonly note: string | null;
};

/** Revoke and forget `server`'s tokens. */
export async function revokeAuthorization({
  server,
  entry,
  store,
  secrets,
  fetchFor,
}: {
  server: string;
  entry: RemoteServerConfig | null | undefined;
  store: OAuthStore;
  secrets: Pick<SecretStore, 'get'>;
  fetchFor: (serverUrl: string) => FetchLike;
}): Promise<Revocation> {
  const record = await store.read(server);
  const tokens = record.tokens;
  const metadata = record.discovery?.authorizationServerMetadata as { revocation_endpoint?: string } | undefined;
  let revoked = false;
  let note: string | null = null;
  // The URL the tokens were issued for: a removed server's record is revoked with what it kept.
  const serverUrl = record.serverUrl ?? entry?.url;
  if (tokens && metadata?.revocation_endpoint && serverUrl) {
    try {
      const client = (entry ? await configuredClient(entry, secrets) : undefined) ?? record.client;
      if (!client) throw new Error('no registered client');
      const as = metadata as unknown as oauth.AuthorizationServer;
      const auth = client.client_secret ? oauth.ClientSecretPost(client.client_secret) : oauth.None();
      const guarded = fetchFor(serverUrl);
      const options = {
        [oauth.customFetch]: (url: string, init: RequestInit) => guarded(url, init),
        // The guarded fetch allows http only on loopback.
        [oauth.allowInsecureRequests]: true,
      };
      for (const [token, hint] of [
        [tokens.refresh_token, 'refresh_token'],
        [tokens.access_token, 'access_token'],
      ] as const) {
        if (!token) continue;
        const response = await oauth.revocationRequest(as, { client_id: client.client_id }, auth, token, {
          ...options,
          additionalParameters: { token_type_hint: hint },
        });
        await oauth.processRevocationResponse(response);
      }
      revoked = true;
    } catch (error) {
      note = `not revoked at the authorization server: ${error instanceof Error ? error.message : String(error)}`;
    }
  } else if (tokens) note = 'the authorization server offers no revocation (RFC 7009): the tokens are only forgotten';
  const forgotten = await store.forget(server);
  return { forgotten: forgotten && tokens !== undefined, revoked, note };
}
