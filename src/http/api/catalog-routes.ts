/**
 * What one connected server offers (SPEC A1, S7): its tools, resources, resource templates
 * and prompts as the upstream lists them (the admin's view; agents see them through the
 * gateway, sanitized and pinned); and the kinds of capability it declares (the UI asks for
 * completions only of a server that offers them).
 * @module
 */
import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { UpstreamUnavailableError } from '../../errors.js';
import type { Hub } from '../../hub/create-hub.js';
import { createApi, errorResponses, jsonResponse, ServerParams } from './api-schemas.js';

const KINDS = {
  tools: { path: 'tools', what: 'tools' },
  resources: { path: 'resources', what: 'resources' },
  resourceTemplates: { path: 'resource-templates', what: 'resource templates' },
  prompts: { path: 'prompts', what: 'prompts' },
} as const;

type Kind = keyof typeof KINDS;

const Item = z.record(z.string(), z.unknown());

const routeOf = (kind: Kind) =>
  createRoute({
    method: 'get',
    path: `/{name}/${KINDS[kind].path}`,
    tags: ['servers'],
    summary: `The ${KINDS[kind].what} the connected server lists`,
    request: { params: ServerParams },
    responses: {
      200: jsonResponse(`The ${KINDS[kind].what}`, z.object({ server: z.string(), [kind]: z.array(Item) })),
      ...errorResponses(404, 503),
    },
  });

const capabilities = createRoute({
  method: 'get',
  path: '/{name}/capabilities',
  tags: ['servers'],
  summary: 'The capabilities the connected server declared when it connected',
  request: { params: ServerParams },
  responses: {
    200: jsonResponse(
      'Its capabilities, as MCP `initialize` gave them (`tools`, `resources`, `prompts`, `completions`, `logging`…)',
      z.object({ server: z.string(), capabilities: Item }),
    ),
    ...errorResponses(404, 503),
  },
});

/** Routes mounted at `/api/servers`. */
export function catalogRoutes({ hub }: { hub: Hub }): OpenAPIHono {
  const routes = createApi();
  for (const kind of Object.keys(KINDS) as Kind[]) {
    routes.openapi(routeOf(kind), (c) => {
      const { name } = c.req.valid('param');
      const status = hub.getServer(name);
      const upstream = hub.upstream(name);
      if (!upstream) throw new UpstreamUnavailableError(name, status.state, status.attempt);
      return c.json({ server: name, [kind]: upstream.catalog()[kind] }, 200);
    });
  }
  routes.openapi(capabilities, (c) => {
    const { name } = c.req.valid('param');
    const status = hub.getServer(name);
    const upstream = hub.upstream(name);
    if (!upstream) throw new UpstreamUnavailableError(name, status.state, status.attempt);
    return c.json({ server: name, capabilities: upstream.capabilities() ?? {} }, 200);
  });
  return routes;
}
