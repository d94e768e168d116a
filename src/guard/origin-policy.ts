/**
 * DNS-rebinding defence (SPEC X2): a request is served only when its `Host` names this
 * service and its `Origin`, when a browser sends one, is allowed. Pure: the caller
 * supplies the port it listens on and the configured extra names.
 * @module
 */

/** Extra hosts (`name:port` or `name`) and origins (`scheme://name:port`) to allow. */
export type OriginPolicy = { readonly allowedHosts: readonly string[]; readonly allowedOrigins: readonly string[] };

/** The verdict, with the reason for a refusal. */
export type OriginVerdict = { ok: true } | { ok: false; reason: string };

const LOOPBACK = ['127.0.0.1', 'localhost', '[::1]'];

/** Check `host` and `origin` headers against the loopback names on `port` plus the policy. */
export function checkOrigin(
  headers: { host?: string | undefined; origin?: string | undefined },
  port: number,
  policy: OriginPolicy,
): OriginVerdict {
  const hosts = new Set([...LOOPBACK.map((h) => `${h}:${port}`), ...policy.allowedHosts.map((h) => h.toLowerCase())]);
  const host = headers.host?.toLowerCase();
  if (!host) return { ok: false, reason: 'missing Host header' };
  const hostOnly = host.replace(/:\d+$/, '');
  if (!hosts.has(host) && !hosts.has(hostOnly)) return { ok: false, reason: `host "${host}" is not allowed` };
  if (headers.origin === undefined) return { ok: true };
  const origins = new Set([
    ...LOOPBACK.flatMap((h) => [`http://${h}:${port}`, `https://${h}:${port}`]),
    ...policy.allowedOrigins.map((o) => o.toLowerCase()),
  ]);
  if (!origins.has(headers.origin.toLowerCase()))
    return { ok: false, reason: `origin "${headers.origin}" is not allowed` };
  return { ok: true };
}
