/**
 * The SSRF rules of OAuth discovery (issue 23, docs/security.md): an upstream names URLs
 * (its resource metadata, its authorization server, and through that server's metadata the
 * authorization, token, registration and revocation endpoints) that boternity then fetches.
 * Each is checked here before it is fetched, and a redirect is never followed:
 *
 * 1. `https:` only; `http:` only to a loopback host (127.0.0.0/8, ::1, localhost).
 * 2. No user name or password in the URL.
 * 3. A host that resolves to an internal address (loopback, private, link-local, CGNAT,
 *    unique-local, unspecified, multicast; IPv4 inside IPv6 unwrapped) is fetched only when the upstream's own URL is
 *    internal too: a public upstream cannot steer boternity into its own network.
 * @module
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { isInternalIp, isLoopbackIp } from './classify-address.js';

/** Resolves a host name to its addresses (node:dns `lookup` with `all: true` in production). */
export type LookupAll = (host: string) => Promise<readonly string[]>;

/** The addresses of `host` by the system resolver. */
export const lookupAll: LookupAll = async (host) =>
  (await dnsLookup(host, { all: true, verbatim: true })).map((entry) => entry.address);

/** A URL the rules refuse; its message is one line naming the URL and the rule. */
export class OAuthUrlRefused extends Error {}

const bare = (host: string) => host.replace(/^\[|\]$/g, '').toLowerCase();

/** True for a loopback host name or address. */
export function isLoopbackHost(host: string): boolean {
  const name = bare(host);
  return name === 'localhost' || name.endsWith('.localhost') || isLoopbackIp(name);
}

/**
 * True for an address a public upstream has no business sending boternity to: judged by its
 * bytes, so `::ffff:a00:1` (WHATWG URL's spelling of `::ffff:10.0.0.1`) and NAT64 count too.
 */
export const isInternalAddress = (address: string): boolean => isInternalIp(address);

async function resolvesInternal(host: string, lookup: LookupAll): Promise<boolean> {
  const name = bare(host);
  if (isLoopbackHost(name)) return true;
  const addresses = isIP(name) ? [name] : await lookup(name);
  return addresses.some(isInternalAddress);
}

/** Refuse `target` (throws {@link OAuthUrlRefused}) unless the rules above allow it for an upstream at `serverUrl`. */
export async function checkOAuthUrl(
  target: string | URL,
  { serverUrl, lookup = lookupAll }: { serverUrl: string | URL; lookup?: LookupAll | undefined },
): Promise<URL> {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    throw new OAuthUrlRefused(`OAuth metadata names an invalid URL: ${String(target).slice(0, 200)}`);
  }
  const shown = `${url.origin}${url.pathname}`;
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname)))
    throw new OAuthUrlRefused(`refused ${shown}: OAuth metadata is fetched over https only (http only on loopback)`);
  if (url.username || url.password) throw new OAuthUrlRefused(`refused ${shown}: a URL with credentials`);
  const server = new URL(serverUrl);
  if (url.host === server.host) return url;
  let internal: boolean;
  try {
    internal = await resolvesInternal(url.hostname, lookup);
  } catch (error) {
    throw new OAuthUrlRefused(`refused ${shown}: its host does not resolve (${(error as Error).message})`);
  }
  if (internal && !(await resolvesInternal(server.hostname, lookup).catch(() => false)))
    throw new OAuthUrlRefused(
      `refused ${shown}: an internal address named by the public upstream ${server.origin} (SSRF rule)`,
    );
  return url;
}
