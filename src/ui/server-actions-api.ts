/**
 * The calls of the API client that act on one server beyond connect and disconnect: OAuth
 * (start, finish with a pasted address, revoke) and the sampling spend's reset. Kept apart
 * from `api.ts` so that each file stays one screen of reading; `createApiClient` spreads them in.
 * @module
 */
import type { Server } from './api-types.js';

/** What `DELETE /api/servers/{name}/authorization` did. */
export type AuthorizationRevoked = { server: string; forgotten: boolean; revoked: boolean; note: string | null };

/** The calls, given the client's `call` and its URL of a server's sub-path. */
export function createServerActions(
  call: <T>(method: string, url: string, body?: unknown) => Promise<T>,
  server: (name: string, ...rest: string[]) => string,
) {
  return {
    /** Start an OAuth authorization (issue 23): the page to open and what it asks for. */
    authorize: (name: string) =>
      call<{ url: string; state: string; authorizationServer: string; scopes: string[] }>(
        'POST',
        server(name, 'authorize'),
      ),
    /** Finish one with the address the browser ended on, for a browser that cannot reach the callback. */
    completeAuthorization: (name: string, redirectUrl: string) =>
      call<{ server: string }>('POST', server(name, 'authorize', 'complete'), { redirectUrl }),
    /** Revoke (where offered) and forget the server's OAuth tokens; a connected server reconnects without them. */
    revokeAuthorization: (name: string) => call<AuthorizationRevoked>('DELETE', server(name, 'authorization')),
    /** Set the server's sampling spend back to zero. */
    resetSampling: (name: string) => call<{ server: Server }>('POST', server(name, 'sampling', 'reset')),
  };
}
