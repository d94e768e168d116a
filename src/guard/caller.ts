/**
 * Who is calling (SPEC G3, X1): the bearer token identifies a caller, and the caller
 * decides the view. The admin token sees everything; a bot-bound token sees its bot.
 * @module
 */
import { sameSecret } from './same-secret.js';

/** The identity behind a request's token. */
export type Caller =
  | { readonly kind: 'admin' }
  | { readonly kind: 'bot'; readonly slug: string; readonly tokenId: string };

/** Maps a presented token to its caller, or null when it is not valid. */
export type VerifyToken = (token: string) => Caller | null;

/** The verifier for the admin token alone (bot tokens come with `bnity token create --bot`). */
export function adminTokenVerifier(adminToken: string): VerifyToken {
  return (token) => (sameSecret(token, adminToken) ? { kind: 'admin' } : null);
}
