/**
 * Operations on one server (SPEC A1, X5, X6, section 7): connect, disconnect, its stderr log,
 * lifting a rug-pull quarantine, and resetting its sampling spend.
 * @module
 */
import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppConfig } from '../../config/schema.js';
import { HubError } from '../../errors.js';
import type { Hub } from '../../hub/create-hub.js';
import {
  createApi,
  errorResponses,
  jsonResponse,
  ServerParams,
  ServerToolParams,
  wholeNumberQuery,
} from './api-schemas.js';
import { OneServerSchema } from './server-schemas.js';
import { type CatalogChurn, createServerViews, type SamplingUsage } from './server-view.js';

/** Lifts a rug-pull quarantine (X5); false when the tool is not quarantined. And says whether a catalog churns. */
export type ApprovePins = CatalogChurn & {
  approve(server: string, tool: string, expectedHash?: string): Promise<boolean>;
};

const tags = ['servers'];

const command = (action: 'connect' | 'disconnect', summary: string) =>
  createRoute({
    method: 'post',
    path: `/{name}/${action}`,
    tags,
    summary,
    request: { params: ServerParams },
    responses: {
      202: jsonResponse('Accepted: the server object as the command leaves it', OneServerSchema),
      ...errorResponses(404),
    },
  });
const connect = command('connect', 'Connect now (a disabled server is enabled until the next config change)');
const disconnect = command('disconnect', 'Disconnect and stay disabled until connect');

/** A stdio server's last stderr lines. */
export const StderrLinesSchema = z.object({ server: z.string(), lines: z.array(z.string()) });

const stderr = createRoute({
  method: 'get',
  path: '/{name}/stderr',
  tags,
  summary: "The stdio child's last stderr lines, oldest first",
  request: {
    params: ServerParams,
    query: z.object({
      tail: wholeNumberQuery(1).optional().openapi({ description: 'Only the last N lines', example: '50' }),
    }),
  },
  responses: {
    200: jsonResponse('The lines', StderrLinesSchema),
    ...errorResponses(400, 404),
  },
});

const approve = createRoute({
  method: 'post',
  path: '/{name}/tools/{tool}/approve',
  tags: ['pins'],
  summary: "Approve a quarantined tool's new description and schema (X5)",
  request: {
    params: ServerToolParams,
    query: z.object({
      hash: z.string().min(1).optional().openapi({ description: 'Approve only the change with this hash' }),
    }),
    body: {
      required: false,
      content: { 'application/json': { schema: z.object({ hash: z.string().min(1).optional() }).strict() } },
    },
  },
  responses: {
    200: jsonResponse(
      'Approved: the tool is listed again',
      z.object({ server: z.string(), tool: z.string(), status: z.literal('approved') }),
    ),
    ...errorResponses(400, 404),
  },
});

const samplingReset = createRoute({
  method: 'post',
  path: '/{name}/sampling/reset',
  tags: ['sampling'],
  summary: "Reset the server's sampling spend to zero (X6)",
  request: { params: ServerParams },
  responses: { 200: jsonResponse('The server, with its spend reset', OneServerSchema), ...errorResponses(404) },
});

/** Routes mounted at `/api/servers`. */
export function serverActionsRoutes({
  hub,
  config,
  pins,
  sampling,
  replica,
}: {
  hub: Hub;
  /** The config in force. */
  config: () => AppConfig;
  pins?: ApprovePins;
  sampling?: SamplingUsage;
  /** The replica the answers describe (ADR 041). */
  replica?: string;
}): OpenAPIHono {
  const routes = createApi();
  const views = createServerViews(hub, config, sampling, pins, replica);
  routes.openapi(connect, (c) => {
    const { name } = c.req.valid('param');
    hub.connect(name);
    return c.json({ server: views.one(name) }, 202);
  });
  routes.openapi(disconnect, (c) => {
    const { name } = c.req.valid('param');
    hub.disconnect(name);
    return c.json({ server: views.one(name) }, 202);
  });
  routes.openapi(stderr, (c) => {
    const { name } = c.req.valid('param');
    const { tail } = c.req.valid('query');
    hub.getServer(name);
    const lines = hub.stderr(name);
    return c.json({ server: name, lines: tail === undefined ? [...lines] : lines.slice(-tail) }, 200);
  });
  routes.openapi(samplingReset, async (c) => {
    const { name } = c.req.valid('param');
    hub.getServer(name);
    await sampling?.reset(name);
    return c.json({ server: views.one(name) }, 200);
  });
  if (pins) {
    routes.openapi(approve, async (c) => {
      const { name: server, tool } = c.req.valid('param');
      // `?hash=` (or `{"hash"}`) approves only the change that was reviewed (X5).
      const hash = c.req.valid('query').hash ?? c.req.valid('json').hash;
      if (!(await pins.approve(server, tool, hash))) {
        throw new HubError(
          'not_found',
          hash
            ? `tool "${tool}" of server "${server}" has no pending change with hash ${hash}`
            : `tool "${tool}" of server "${server}" is not quarantined`,
        );
      }
      return c.json({ server, tool, status: 'approved' as const }, 200);
    });
  }
  return routes;
}
