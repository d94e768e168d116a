/**
 * OAuth 2.1 to upstream servers (issue 23): the part's public surface.
 * @module
 */
export type { AuthorizationStart, AuthorizeFlows, Finisher, Redirect } from './authorize-flows.js';
export { callbackUrl } from './authorize-flows.js';
export {
  checkOAuthUrl,
  isInternalAddress,
  isLoopbackHost,
  type LookupAll,
  OAuthUrlRefused,
} from './check-oauth-url.js';
export { createOAuth, type OAuth, type OAuthDeps, type OAuthFleet } from './create-oauth.js';
export type { Exclusive } from './keep-tokens.js';
export { recordName } from './oauth-store.js';
export type { FlowBus } from './relay-flows.js';
export type { Revocation } from './revoke-authorization.js';
