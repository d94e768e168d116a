/**
 * Redirects of a remote upstream's requests (X8): which ones may be followed. A request to
 * an upstream carries the config's `headers` (API keys) and, for a POST, a JSON-RPC message;
 * fetch strips only `Authorization` and cookies when a redirect leaves the origin. So only a
 * redirect within the origin (or its upgrade from http to https on the default ports, as the
 * SDK allows) is followed, and a POST only on 307/308, which keep its method and body.
 * @module
 */

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** Where `response` to a request for `from` redirects, or null when it is no redirect (or has no usable Location). */
export function redirectTarget(response: Response, from: string | URL): URL | null {
  if (!REDIRECTS.has(response.status)) return null;
  const location = response.headers.get('location');
  try {
    return location ? new URL(location, from) : null;
  } catch {
    return null;
  }
}

/** Whether a request for `from` may follow a redirect to `to`: the same origin, no new credentials in the URL. */
export function withinOrigin(from: URL, to: URL): boolean {
  if ((to.username || to.password) && (to.username !== from.username || to.password !== from.password)) return false;
  if (from.origin === to.origin) return true;
  return (
    from.hostname === to.hostname && from.protocol === 'http:' && to.protocol === 'https:' && !from.port && !to.port
  );
}

/** Whether a redirect of a request with `method` to `status` keeps its method and body (else it is not followed). */
export function keepsMethod(status: number, method: string | undefined): boolean {
  return status === 307 || status === 308 || (method ?? 'GET').toUpperCase() === 'GET';
}

/** `url` as an error may show it: no user, password, query or fragment (they may hold secrets). */
export function shownTarget(url: URL): string {
  const shown = new URL(url);
  shown.username = shown.password = shown.search = shown.hash = '';
  return shown.href;
}
