/**
 * `/api/servers`: status of every supervised server and per-server operations.
 * @module
 */
import { Hono } from 'hono';
import { UpstreamUnavailableError } from '../errors.js';
import type { Hub } from '../hub/create-hub.js';

/** Routes mounted at `/api/servers`. */
export function serversRoutes({ hub }: { hub: Hub }): Hono {
  const routes = new Hono();
  routes.get('/', (c) => c.json({ servers: hub.listServers() }));
  routes.get('/:name', (c) => c.json({ server: hub.getServer(c.req.param('name')) }));
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
  return routes;
}
