/**
 * Discovery (S7): list what an upstream offers, following pagination cursors, and diff two
 * listings after a `list_changed` notification.
 * @module
 */
import { createHash } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { Logger } from 'pino';
import type { CatalogCounts, CatalogDiff, CatalogKind } from '../../machines/index.js';
import { canonicalJson } from '../guard/canonical-json.js';
import { createCatalogSieve } from './catalog-bounds.js';
import type { Catalog } from './types.js';

/** A catalog with nothing in it. */
export const EMPTY_CATALOG: Catalog = { tools: [], resources: [], resourceTemplates: [], prompts: [] };

/** Every catalog kind, in the order diffs are reported. */
export const CATALOG_KINDS: readonly CatalogKind[] = ['tools', 'resources', 'resourceTemplates', 'prompts'];

// A server that keeps handing out cursors must not keep us listing forever.
const MAX_PAGES = 1_000;

/**
 * List every kind the server advertises (unadvertised kinds are empty). Items past the bounds
 * of `catalog-bounds.ts` (depth, count, bytes) are left out, with one warning on `log` per kind.
 */
export async function listCatalog(client: Client, options?: RequestOptions, log?: Logger): Promise<Catalog> {
  return { ...EMPTY_CATALOG, ...(await listKinds(client, CATALOG_KINDS, options, log)) };
}

/** List only `kinds`, skipping those whose capability the server does not advertise. */
export async function listKinds(
  client: Client,
  kinds: readonly CatalogKind[],
  options?: RequestOptions,
  log?: Logger,
): Promise<Partial<Catalog>> {
  const caps = client.getServerCapabilities() ?? {};
  const listers: Record<CatalogKind, () => Promise<readonly unknown[]>> = {
    tools: () =>
      paginate(
        'tools',
        (cursor) => client.listTools(page(cursor), options),
        (r) => r.tools,
        log,
      ),
    resources: () =>
      paginate(
        'resources',
        (cursor) => client.listResources(page(cursor), options),
        (r) => r.resources,
        log,
      ),
    resourceTemplates: () =>
      paginate(
        'resourceTemplates',
        (cursor) => client.listResourceTemplates(page(cursor), options),
        (r) => r.resourceTemplates,
        log,
      ),
    prompts: () =>
      paginate(
        'prompts',
        (cursor) => client.listPrompts(page(cursor), options),
        (r) => r.prompts,
        log,
      ),
  };
  const advertised = (kind: CatalogKind) => (kind === 'resourceTemplates' ? caps.resources : caps[kind]) !== undefined;
  const wanted = kinds.filter(advertised);
  const lists = await Promise.all(wanted.map((kind) => listers[kind]()));
  return Object.fromEntries(wanted.map((kind, i) => [kind, lists[i]])) as Partial<Catalog>;
}

/** Per kind, the names added, removed and changed (same key, different content); unchanged kinds are omitted. */
export function diffCatalog(prev: Catalog, next: Catalog): CatalogDiff[] {
  const diffs: CatalogDiff[] = [];
  for (const kind of CATALOG_KINDS) {
    const before = keyed(kind, prev[kind]);
    const after = keyed(kind, next[kind]);
    const added = [...after.keys()].filter((k) => !before.has(k));
    const removed = [...before.keys()].filter((k) => !after.has(k));
    const changed = [...after].filter(([k, v]) => before.has(k) && before.get(k) !== v).map(([k]) => k);
    if (added.length + removed.length + changed.length > 0) diffs.push({ kind, added, removed, changed });
  }
  return diffs;
}

/** How many entries of each kind a catalog holds. */
export function countCatalog(catalog: Catalog): CatalogCounts {
  return {
    toolCount: catalog.tools.length,
    resourceCount: catalog.resources.length,
    resourceTemplateCount: catalog.resourceTemplates.length,
    promptCount: catalog.prompts.length,
  };
}

/** The key an entry is known by: tools and prompts by name, resources by uri, templates by uriTemplate. */
export function catalogKey(kind: CatalogKind, entry: unknown): string {
  const field = kind === 'resources' ? 'uri' : kind === 'resourceTemplates' ? 'uriTemplate' : 'name';
  return String((entry as Record<string, unknown>)[field]);
}

function keyed(kind: CatalogKind, entries: readonly unknown[]): Map<string, string> {
  return new Map(entries.map((entry) => [catalogKey(kind, entry), stableJson(entry)]));
}

function page(cursor: string | undefined): { cursor: string } | undefined {
  return cursor === undefined ? undefined : { cursor };
}

async function paginate<R extends { nextCursor?: string | undefined }, T>(
  kind: CatalogKind,
  fetchPage: (cursor: string | undefined) => Promise<R>,
  items: (result: R) => readonly T[],
  log: Logger | undefined,
): Promise<T[]> {
  const all: T[] = [];
  const sieve = createCatalogSieve<T>(kind, (item) => catalogKey(kind, item));
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let n = 0; n < MAX_PAGES; n++) {
    const result = await fetchPage(cursor);
    for (const item of sieve.keep(items(result))) all.push(item);
    cursor = result.nextCursor;
    if (cursor === undefined || sieve.full()) break;
    // Remembered by digest: a thousand cursors of a few MB each would otherwise be kept whole.
    const digest = createHash('sha256').update(cursor).digest('base64');
    if (seen.has(digest)) break;
    seen.add(digest);
  }
  sieve.report(log);
  return all;
}

// Key order must not count as a change: serialize objects with sorted keys.
function stableJson(value: unknown): string {
  return canonicalJson(value) ?? 'null';
}
