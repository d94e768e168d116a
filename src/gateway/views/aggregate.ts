/**
 * One gateway view over several upstream catalogs (SPEC G2, G3): what is listed to the agent
 * and where each listed item routes back to. Pure: rebuild it whenever a catalog or the config
 * changes, and compare `fingerprint`s to decide on `list_changed` (G5).
 *
 * Order: servers in input order, items in upstream order. An upstream listing the same tool,
 * prompt, resource URI or template twice is listed once.
 * - Tools: filtered by {@link isToolAllowed} (upstream names), then the operator's
 *   `toolOverrides` applied (hidden ones dropped; name, title, description replaced: issue 24),
 *   then named `{server}__{tool}` (`prefixed`) or left as they are (`identity`); name
 *   collisions are resolved as in `public-names.ts`. Every other field of the tool (schemas,
 *   annotations, _meta…) is kept. A renamed tool routes to the upstream's own name.
 * - Prompts: named like tools; no permission filter.
 * - Resources: a URI listed by one server passes through. When several servers list the same
 *   URI, the first server in view order keeps it and each other copy is listed under
 *   `toRewrittenUri` (`boternity:{server}:{uri}`). `resource()` maps both forms back: exact
 *   listed URI, then a rewritten URI of a server in the view, then the first matching template.
 * - Resource templates: passed through; for identical `uriTemplate` strings the first server
 *   owns routing and the later duplicates are not listed.
 * @module
 */
import { createHash } from 'node:crypto';
import { UriTemplate } from '@modelcontextprotocol/sdk/shared/uriTemplate.js';
import type { Prompt, Resource, ResourceTemplate, Tool } from '@modelcontextprotocol/sdk/types.js';
import { canonicalJson } from '../../guard/canonical-json.js';
import type { Catalog } from '../../upstream/types.js';
import { type Naming, namePublicItems, type Owned, parseRewrittenUri, toRewrittenUri } from './public-names.js';
import { isToolAllowed, type ServerToolLists, type ToolPermission } from './tool-filter.js';

/** Where a listed tool or prompt lives: the owning server and the upstream's own name (`shown`: the operator's, when renamed). */
export type Route = Owned & { readonly shown?: string };

/** An operator's changes to one upstream tool (the config's `toolOverrides` entry). */
export type ToolOverride = { name?: string; title?: string; description?: string; hidden?: boolean };

/** One upstream as a view sees it. */
export type ViewServer = {
  readonly server: string;
  readonly config: ServerToolLists;
  readonly catalog: Catalog;
  readonly permission?: ToolPermission;
  /** By the upstream's tool name. */
  readonly overrides?: Readonly<Record<string, ToolOverride>>;
};

/** The listings and routing table of one view; every lookup returns null outside the view. */
export type AggregatedView = {
  /** Whether tools and prompts are `{server}__{name}` or the upstream's own names. */
  readonly naming: Naming;
  readonly tools: Tool[];
  readonly resources: Resource[];
  readonly resourceTemplates: ResourceTemplate[];
  readonly prompts: Prompt[];
  tool(publicName: string): Route | null;
  prompt(publicName: string): Route | null;
  resource(uri: string): { server: string; uri: string } | null;
  template(uriTemplate: string): { server: string; uriTemplate: string } | null;
  publicUri(server: string, uri: string): string;
  readonly fingerprint: { tools: string; resources: string; prompts: string };
};

type UriRoute = { server: string; uri: string };
type TemplateRoute = { server: string; uriTemplate: string; matches: (uri: string) => boolean };

/** Builds the view of `servers`, named per `naming`. */
export function buildView(input: { naming: Naming; servers: readonly ViewServer[] }): AggregatedView {
  const { servers, naming } = input;
  // A renamed tool's upstream name, by server and the name it is listed under.
  const renamed = new Map<string, string>();
  const tools = namePublicItems(
    servers.flatMap(({ server, config, catalog, permission, overrides }) =>
      catalog.tools
        .filter((t) => isToolAllowed(t.name, config, permission))
        .flatMap((t) => {
          const override = overrides && Object.hasOwn(overrides, t.name) ? overrides[t.name] : undefined;
          if (!override) return [{ server, item: t }];
          if (override.hidden) return [];
          const { name = t.name, title, description } = override;
          if (name !== t.name) renamed.set(pairKey(server, name), t.name);
          return [
            { server, item: { ...t, name, ...(title ? { title } : {}), ...(description ? { description } : {}) } },
          ];
        }),
    ),
    naming,
  );
  const prompts = namePublicItems(
    servers.flatMap(({ server, catalog }) => catalog.prompts.map((item) => ({ server, item }))),
    naming,
  );

  const exact = new Map<string, UriRoute>();
  const served = new Set<string>();
  const resources: Resource[] = [];
  for (const { server, catalog } of servers) {
    for (const r of catalog.resources) {
      if (served.has(pairKey(server, r.uri))) continue;
      served.add(pairKey(server, r.uri));
      const uri = exact.has(r.uri) ? toRewrittenUri(server, r.uri) : r.uri;
      if (exact.has(uri)) continue;
      exact.set(uri, { server, uri: r.uri });
      resources.push(uri === r.uri ? r : { ...r, uri });
    }
  }

  const templates = new Map<string, TemplateRoute>();
  const matchers: TemplateRoute[] = [];
  const resourceTemplates: ResourceTemplate[] = [];
  for (const { server, catalog } of servers) {
    for (const t of catalog.resourceTemplates) {
      const route = { server, uriTemplate: t.uriTemplate, matches: toMatcher(t.uriTemplate) };
      matchers.push(route);
      if (templates.has(t.uriTemplate)) continue;
      templates.set(t.uriTemplate, route);
      resourceTemplates.push(t);
    }
  }

  const matchTemplate = (uri: string, server?: string): UriRoute | null => {
    const hit = matchers.find((m) => (server === undefined || m.server === server) && m.matches(uri));
    return hit ? { server: hit.server, uri } : null;
  };
  const resource = (uri: string): UriRoute | null => {
    const listed = exact.get(uri);
    if (listed) return { ...listed };
    const rewritten = parseRewrittenUri(uri);
    if (
      rewritten &&
      (served.has(pairKey(rewritten.server, rewritten.uri)) || matchTemplate(rewritten.uri, rewritten.server))
    )
      return rewritten;
    return matchTemplate(uri);
  };

  let fingerprint: AggregatedView['fingerprint'] | undefined;
  return {
    naming,
    tools: tools.listed,
    resources,
    resourceTemplates,
    prompts: prompts.listed,
    tool: (name) => {
      const route = lookup(tools.routes, name);
      const own = route ? renamed.get(pairKey(route.server, route.name)) : undefined;
      return route && own !== undefined ? { server: route.server, name: own, shown: route.name } : route;
    },
    prompt: (name) => lookup(prompts.routes, name),
    resource,
    template: (uriTemplate) => {
      const route = templates.get(uriTemplate);
      return route ? { server: route.server, uriTemplate } : null;
    },
    publicUri: (server, uri) => {
      const route = resource(uri);
      return !route || (route.server === server && route.uri === uri) ? uri : toRewrittenUri(server, uri);
    },
    // Lazy: only list_changed checks need the hashes.
    get fingerprint() {
      fingerprint ??= {
        tools: fingerprintOf(tools.listed),
        resources: fingerprintOf({ resources, resourceTemplates }),
        prompts: fingerprintOf(prompts.listed),
      };
      return fingerprint;
    },
  };
}

function lookup(routes: ReadonlyMap<string, Route>, name: string): Route | null {
  const route = routes.get(name);
  return route ? { ...route } : null;
}

function pairKey(server: string, item: string): string {
  return `${server}\u0000${item}`;
}

/** A URI tester; a template or URI the SDK rejects (too long) never matches. */
function toMatcher(uriTemplate: string): (uri: string) => boolean {
  try {
    const template = new UriTemplate(uriTemplate);
    return (uri) => {
      try {
        return template.match(uri) !== null;
      } catch {
        return false;
      }
    };
  } catch {
    return () => false;
  }
}

/**
 * sha256 of canonical JSON (object keys sorted), so key order never counts as a change.
 * Written without recursion: a deeply nested item must not make every list_changed check
 * and session open throw (discovery refuses such items anyway).
 */
function fingerprintOf(value: unknown): string {
  return createHash('sha256')
    .update(canonicalJson(value) ?? 'null')
    .digest('hex');
}
