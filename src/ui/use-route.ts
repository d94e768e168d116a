/**
 * The page's place, kept in the URL's fragment (`#/servers/memory`), so links, the back
 * button and a reload work and the service serves one page for all of them.
 * @module
 */
import { useEffect, useState } from 'preact/hooks';
import { followEvent } from './follow-event.js';

/** Where the page is. */
export type Route =
  | { readonly page: 'servers' }
  | { readonly page: 'server'; readonly name: string }
  | { readonly page: 'quarantines' }
  /** `query`: the audit's filters and page, as in `#/audit?server=fs&event=tool_call`, so a filtered view is a link. */
  | { readonly page: 'audit'; readonly query?: Readonly<Record<string, string>> }
  | { readonly page: 'tokens' }
  | { readonly page: 'credentials' }
  | { readonly page: 'config' }
  /** The fleet's replicas (cluster mode; on a lone service, says it runs alone). */
  | { readonly page: 'cluster' }
  | { readonly page: 'bots' }
  | { readonly page: 'bot'; readonly slug: string }
  | { readonly page: 'link-refused' };

/** The route of a fragment such as `#/servers/memory`; anything unknown is the servers page. */
export function parseRoute(hash: string): Route {
  const audit = /^#?\/?audit\?(.*)$/s.exec(hash);
  if (audit) return { page: 'audit', query: queryOf(audit[1] ?? '') };
  const [first, second] = hash.replace(/^#\/?/, '').split('/').map(decodeURIComponent);
  if (first === 'servers' && second) return { page: 'server', name: second };
  if (first === 'bots' && second) return { page: 'bot', slug: second };
  if (
    first === 'quarantines' ||
    first === 'audit' ||
    first === 'tokens' ||
    first === 'credentials' ||
    first === 'config' ||
    first === 'cluster' ||
    first === 'bots'
  )
    return { page: first };
  if (first === 'sign-in' && second === 'link-refused') return { page: 'link-refused' };
  return { page: 'servers' };
}

/** The fragment of a route. */
export function hrefOf(route: Route): string {
  if (route.page === 'server') return `#/servers/${encodeURIComponent(route.name)}`;
  if (route.page === 'bot') return `#/bots/${encodeURIComponent(route.slug)}`;
  if (route.page === 'link-refused') return '#/sign-in/link-refused';
  if (route.page === 'audit' && route.query) {
    const search = new URLSearchParams(Object.entries(route.query).filter(([, value]) => value !== '')).toString();
    if (search) return `#/audit?${search}`;
  }
  return `#/${route.page}`;
}

/** A query string's parameters, the first of each name, empty ones left out. */
function queryOf(search: string): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [key, value] of new URLSearchParams(search)) if (value !== '' && !(key in query)) query[key] = value;
  return query;
}

/** The current route, following the fragment. */
export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(
    () =>
      followEvent(
        window,
        'hashchange',
        () => parseRoute(location.hash),
        (next) => setRoute((now) => (hrefOf(now) === hrefOf(next) ? now : next)),
      ),
    [],
  );
  return route;
}
