/**
 * `/api/servers`: status of every supervised server and per-server operations.
 * @module
 */
import { Hono } from 'hono';
import type { AppConfig } from '../config/schema.js';
import { HubError, UpstreamUnavailableError } from '../errors.js';
import type { Hub } from '../hub/create-hub.js';
import type { ServerStatus } from '../hub/server-status.js';

/** Lifts a rug-pull quarantine (X5); false when the tool is not quarantined. */
export type ApprovePins = { approve(server: string, tool: string, expectedHash?: string): Promise<boolean> };

/** Sampling spent per server (X6), and its reset. */
export type SamplingUsage = { used(server: string): number; reset(server: string): Promise<void> };

/** Routes mounted at `/api/servers`. */
export function serversRoutes({
  hub,
  config,
  pins,
  sampling,
}: {
  hub: Hub;
  config: () => AppConfig;
  pins?: ApprovePins;
  sampling?: SamplingUsage;
}): Hono {
  const routes = new Hono();
  // Each status gains what sampling it has spent and its budget (null: unlimited).
  const withSampling = (status: ServerStatus) => ({
    ...status,
    samplingUsedTokens: sampling?.used(status.name) ?? 0,
    samplingBudgetTokens: config().mcpServers[status.name]?.samplingBudgetTokens ?? null,
  });
  routes.get('/', (c) => c.json({ servers: hub.listServers().map(withSampling) }));
  routes.get('/:name', (c) => c.json({ server: withSampling(hub.getServer(c.req.param('name'))) }));
  routes.post('/:name/sampling/reset', async (c) => {
    const name = c.req.param('name');
    hub.getServer(name);
    await sampling?.reset(name);
    return c.json({ server: withSampling(hub.getServer(name)) });
  });
  routes.get('/:name/stderr', (c) => {
    const name = c.req.param('name');
    hub.getServer(name);
    return c.json({ server: name, lines: hub.stderr(name) });
  });
  routes.get('/:name/tools', (c) => {
    const name = c.req.param('name');
    const status = hub.getServer(name);
    const upstream = hub.upstream(name);
    if (!upstream) throw new UpstreamUnavailableError(name, status.state, status.attempt);
    return c.json({ server: name, tools: upstream.catalog().tools });
  });
  routes.post('/:name/connect', (c) => {
    hub.connect(c.req.param('name'));
    return c.json({ server: hub.getServer(c.req.param('name')) }, 202);
  });
  routes.post('/:name/disconnect', (c) => {
    hub.disconnect(c.req.param('name'));
    return c.json({ server: hub.getServer(c.req.param('name')) }, 202);
  });
  if (pins) {
    routes.post('/:name/tools/:tool/approve', async (c) => {
      const server = c.req.param('name');
      const tool = c.req.param('tool');
      // `?hash=` (or `{"hash"}`) approves only the change that was reviewed (X5).
      const body = (await c.req.json().catch(() => ({}))) as { hash?: unknown };
      const hash = c.req.query('hash') ?? (typeof body.hash === 'string' ? body.hash : undefined);
      if (!(await pins.approve(server, tool, hash))) {
        throw new HubError(
          'not_found',
          hash
            ? `tool "${tool}" of server "${server}" has no pending change with hash ${hash}`
            : `tool "${tool}" of server "${server}" is not quarantined`,
        );
      }
      return c.json({ server, tool, status: 'approved' as const });
    });
  }
  return routes;
}
