/**
 * The fetch of an HTTP upstream that may use OAuth (issue 23), around the transport's own:
 * each request carries the server's access token (refreshed first when due); a 401 to a token
 * refreshes it once (one refresh for all the requests that met it) and the request is sent
 * again, so no call fails for an expired token. A 401 with no token stored, when the upstream
 * names its resource metadata (RFC 9728), its entry has `oauth`, or (a bare 401) it serves the
 * metadata at its well-known URL, discovers the authorization server and fails with
 * {@link NeedsAuthorizationError}; any other 401 is answered as before.
 * Tokens go only to the URL they were issued for (`checkBinding`).
 * @module
 */
import { extractWWWAuthenticateParams } from '@modelcontextprotocol/sdk/client/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { NeedsAuthorizationError } from '../errors.js';
import type { TokenKeeper } from './keep-tokens.js';

/** Options of {@link createBearerFetch}. */
export type BearerFetchOptions = {
  readonly server: string;
  readonly serverUrl: string;
  readonly keeper: TokenKeeper;
  /** The entry has an `oauth` section: a bare 401 means OAuth too. */
  readonly configured: boolean;
  /** A live connection's authorization is gone for good (its refresh was refused). */
  readonly onLost?: ((error: NeedsAuthorizationError) => void) | undefined;
};

const withBearer = (init: RequestInit | undefined, token: string | null): RequestInit | undefined => {
  if (token === null) return init;
  const headers = new Headers(init?.headers);
  headers.set('authorization', `Bearer ${token}`);
  return { ...init, headers };
};

/** Wrap `inner` so that its requests are authorized. */
export function createBearerFetch({ server, serverUrl, keeper, configured, onLost }: BearerFetchOptions) {
  const lost = (error: unknown): never => {
    if (error instanceof NeedsAuthorizationError) onLost?.(error);
    throw error;
  };
  return (inner: FetchLike): FetchLike =>
    async (url, init) => {
      const token = await keeper.accessToken(server, serverUrl).catch(lost);
      const response = await inner(url, withBearer(init, token));
      if (response.status !== 401) return response;
      const { resourceMetadataUrl, scope } = extractWWWAuthenticateParams(response);
      if (token !== null) {
        await response.body?.cancel().catch(() => undefined);
        const fresh = await keeper.refreshAfter(server, token, serverUrl).catch(lost);
        return inner(url, withBearer(init, fresh));
      }
      // A bare 401 (no `resource_metadata`, no `oauth` entry): the MCP spec (2025-11-25) has the
      // client look for RFC 9728 metadata at the well-known URL; none there: a plain 401.
      const bare = resourceMetadataUrl === undefined && !configured;
      let authorizationServer: string | null;
      try {
        authorizationServer = await keeper.discover(server, serverUrl, resourceMetadataUrl, bare, scope);
        if (authorizationServer === null) return response;
        await response.body?.cancel().catch(() => undefined);
      } catch (error) {
        await response.body?.cancel().catch(() => undefined);
        const why = error instanceof Error ? error.message : String(error);
        return lost(new NeedsAuthorizationError(server, null, `its OAuth discovery failed: ${why}`, { cause: error }));
      }
      return lost(new NeedsAuthorizationError(server, authorizationServer, 'no authorization is stored'));
    };
}
