/**
 * The fetch every OAuth request of an upstream goes through (discovery, registration, token,
 * revocation): each URL checked by the SSRF rules first ({@link checkOAuthUrl}), no redirect
 * followed, a deadline on each request, and answers over 256 KiB refused.
 * @module
 */
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { checkOAuthUrl, type LookupAll, OAuthUrlRefused } from './check-oauth-url.js';

/** Options of {@link createGuardedFetch}. */
export type GuardedFetchOptions = {
  /** The upstream's MCP URL: the rules allow what it is allowed. */
  readonly serverUrl: string;
  readonly lookup?: LookupAll | undefined;
  readonly fetch?: FetchLike | undefined;
  readonly timeoutMs?: number | undefined;
};

const MAX_BYTES = 256 * 1024;

/** A fetch that refuses what the SSRF rules refuse. */
export function createGuardedFetch({
  serverUrl,
  lookup,
  fetch: inner = fetch,
  timeoutMs = 15_000,
}: GuardedFetchOptions): FetchLike {
  return async (target, init) => {
    const url = await checkOAuthUrl(target, { serverUrl, lookup });
    const signal = init?.signal
      ? AbortSignal.any([init.signal, AbortSignal.timeout(timeoutMs)])
      : AbortSignal.timeout(timeoutMs);
    const response = await inner(url, { ...init, redirect: 'manual', signal });
    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel().catch(() => undefined);
      throw new OAuthUrlRefused(`refused a redirect from ${url.origin}${url.pathname}: OAuth requests follow none`);
    }
    const length = Number(response.headers.get('content-length') ?? 0);
    if (length > MAX_BYTES) {
      await response.body?.cancel().catch(() => undefined);
      throw new OAuthUrlRefused(`refused an answer of ${length} bytes from ${url.origin}${url.pathname}`);
    }
    // The SDK tells an error answer by `instanceof Response`: one of this realm's, whatever fetch made it.
    const answer: Response = response;
    if (answer instanceof Response) return answer;
    const { body, status, statusText, headers } = answer as Response;
    return new Response(body, { status, statusText, headers });
  };
}
