/**
 * Who is calling (SPEC G3, X1): the bearer token identifies a caller, and the caller
 * decides the view. The admin token sees everything and drives the API; a client token
 * sees every server on `/mcp`; a bot-bound token sees its bot's view only.
 * @module
 */
import { secretMatcher } from './same-secret.js';

/** The identity behind a request's token. */
export type Caller =
  | { readonly kind: 'admin' }
  | { readonly kind: 'client'; readonly tokenId: string; readonly name: string }
  | { readonly kind: 'bot'; readonly slug: string; readonly tokenId: string };

/** Maps a presented token to its caller, or null when it is not valid (now: revocation is immediate). */
export type VerifyToken = ((token: string) => Caller | null | Promise<Caller | null>) & {
  /**
   * Forget what is remembered of token `id`, revoked just now: its next request is checked anew.
   * In a fleet it resolves once every replica forgot it too (the revocation's answer waits for it).
   */
  forget?(id: string): void | Promise<void>;
};

/** The verifier for the admin token alone. */
export function adminTokenVerifier(adminToken: string): (token: string) => Caller | null {
  const isAdmin = secretMatcher(adminToken);
  return (token) => (isAdmin(token) ? { kind: 'admin' } : null);
}

/** The verifier for every caller: the admin token, else what `verifyToken` accepts. */
export function callerVerifier(adminToken: string, verifyToken?: VerifyToken): VerifyToken {
  const admin = adminTokenVerifier(adminToken);
  return async (token) => admin(token) ?? (await verifyToken?.(token)) ?? null;
}
