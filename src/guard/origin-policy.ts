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

type Allowed = { readonly hosts: ReadonlySet<string>; readonly origins: ReadonlySet<string> };

function allowedFor(port: number, policy: OriginPolicy): Allowed {
  return {
    hosts: new Set([...LOOPBACK.map((h) => `${h}:${port}`), ...policy.allowedHosts.map((h) => h.toLowerCase())]),
    origins: new Set([
      ...LOOPBACK.flatMap((h) => [`http://${h}:${port}`, `https://${h}:${port}`]),
      ...policy.allowedOrigins.map((o) => o.toLowerCase()),
    ]),
  };
}

function verdictOf(
  headers: { host?: string | undefined; origin?: string | undefined },
  allowed: Allowed,
): OriginVerdict {
  const host = headers.host?.toLowerCase();
  if (!host) return { ok: false, reason: 'missing Host header' };
  const hostOnly = host.replace(/:\d+$/, '');
  if (!allowed.hosts.has(host) && !allowed.hosts.has(hostOnly))
    return { ok: false, reason: `host "${host}" is not allowed` };
  if (headers.origin === undefined) return { ok: true };
  if (!allowed.origins.has(headers.origin.toLowerCase()))
    return { ok: false, reason: `origin "${headers.origin}" is not allowed` };
  return { ok: true };
}

/** Check `host` and `origin` headers against the loopback names on `port` plus the policy. */
export function checkOrigin(
  headers: { host?: string | undefined; origin?: string | undefined },
  port: number,
  policy: OriginPolicy,
): OriginVerdict {
  return verdictOf(headers, allowedFor(port, policy));
}

/** {@link checkOrigin} that builds the allowed names once per port and policy (a new policy on reload). */
export function createOriginCheck(): typeof checkOrigin {
  let last: { port: number; policy: OriginPolicy; allowed: Allowed } | null = null;
  return (headers, port, policy) => {
    if (last?.port !== port || last.policy !== policy) last = { port, policy, allowed: allowedFor(port, policy) };
    return verdictOf(headers, last.allowed);
  };
}
