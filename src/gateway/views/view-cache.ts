/**
 * Views as they are served (G2–G5, X4): built once per view spec and view generation (the
 * generation moves on every event that can change a view), with their lists sanitized
 * once, when first listed. Sessions of one spec share one view.
 * @module
 */
import type { Prompt, Resource, ResourceTemplate, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { EventBus } from '../../bus/create-event-bus.js';
import type { AppConfig } from '../../config/schema.js';
import type { HubEvent } from '../../events/hub-event.js';
import type { Hub } from '../../hub/create-hub.js';
import type { AggregatedView } from './aggregate.js';
import { computeView, viewServers } from './compute-view.js';
import type { ViewSpec } from './effective-servers.js';
import type { GatewaySanitizer } from './gateway-sanitizer.js';

/** Events after which a view may differ. */
export const VIEW_EVENTS: ReadonlySet<HubEvent['type']> = new Set<HubEvent['type']>([
  'connected',
  'reconnecting',
  'needs_authorization',
  'disabled',
  'removed',
  'catalog_changed',
  'config_applied',
  'tool_quarantined',
  'tool_approved',
  // A churning server's new tools are held, and shown again when it settles.
  'catalog_churn',
]);

/** A view with its sanitized lists. */
export type ServedView = {
  /** Routing and the unsanitized listings (fingerprints are taken from these). */
  readonly view: AggregatedView;
  /** The servers it may see, connected or not, in config order. */
  readonly servers: readonly string[];
  tools(): Tool[];
  resources(): Resource[];
  resourceTemplates(): ResourceTemplate[];
  prompts(): Prompt[];
};

/** What the cache needs. */
export type ViewCacheDeps = {
  bus: EventBus<HubEvent>;
  config: () => AppConfig;
  hub: Pick<Hub, 'upstream'>;
  sanitizer: GatewaySanitizer;
  /** Rug-pull pins (X5): tools it hides are left out of every view. */
  pins?: { isHidden(server: string, tool: string): boolean } | undefined;
};

/** The cache; `stop()` ends its bus subscription. */
export type ViewCache = { view(spec: ViewSpec): ServedView; stop(): void };

const keyOf = (spec: ViewSpec): string =>
  spec.kind === 'all' ? 'all' : spec.kind === 'server' ? `server:${spec.server}` : `bot:${spec.slug}`;

/** `make`'s value, made on the first call only. */
function once<T>(make: () => T): () => T {
  let made: { value: T } | null = null;
  return () => {
    made ??= { value: make() };
    return made.value;
  };
}

/** Create the cache. */
export function createViewCache({ bus, config, hub, pins, sanitizer }: ViewCacheDeps): ViewCache {
  let generation = 0;
  const stop = bus.subscribeTo(VIEW_EVENTS, () => {
    generation += 1;
  });
  const cached = new Map<string, { generation: number; served: ServedView }>();
  const hidden = pins ? (server: string, tool: string) => pins.isHidden(server, tool) : undefined;

  const serve = (spec: ViewSpec): ServedView => {
    const current = config();
    const view = computeView(current, hub, spec, hidden);
    return {
      view,
      servers: viewServers(current, spec),
      tools: once(() => sanitizer.tools(view.tools)),
      resources: once(() => sanitizer.resources(view.resources)),
      resourceTemplates: once(() => sanitizer.resources(view.resourceTemplates)),
      prompts: once(() => sanitizer.prompts(view.prompts)),
    };
  };

  return {
    view(spec) {
      const key = keyOf(spec);
      const hit = cached.get(key);
      if (hit?.generation === generation) return hit.served;
      const served = serve(spec);
      cached.set(key, { generation, served });
      return served;
    },
    stop,
  };
}
