/**
 * `/api/servers` CRUD (SPEC A1, C4, section 7): list and get every server's status; add,
 * replace, update and remove servers. An edit is written to the config file (validated,
 * atomic, locked) and applied at once; it answers with the new server object.
 * @module
 */
import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import type { ConfigWriter } from '../../config/config-writer.js';
import { checkPresetRequirements } from '../../config/presets.js';
import type { AppConfig } from '../../config/schema.js';
import { keepMaskedSecrets } from '../../guard/keep-masked-secrets.js';
import type { Hub } from '../../hub/create-hub.js';
import {
  createApi,
  errorResponses,
  IfMatchHeaders,
  jsonBody,
  jsonResponse,
  NewServerName,
  ServerParams,
} from './api-schemas.js';
import {
  NewServerSchema,
  OneServerSchema,
  ServerEntrySchema,
  ServerPatchSchema,
  ServerSchema,
} from './server-schemas.js';
import { type CatalogChurn, createServerViews, type SamplingUsage } from './server-view.js';

/** What the routes need. */
export type ServersRoutesDeps = {
  hub: Hub;
  /** The config in force. */
  config: () => AppConfig;
  /** Writes the config file; without one the routes that edit are not mounted. */
  writer?: ConfigWriter;
  sampling?: SamplingUsage;
  /** The rug-pull pins: whether a server's catalog churns. */
  pins?: CatalogChurn;
  /** The environment a preset's variables may come from. */
  env?: NodeJS.ProcessEnv;
  /** The replica the answers describe (ADR 041). */
  replica?: string;
};

const tags = ['servers'];
/** What an edit can be refused with (bad input, a name in use or a locked file, too large, not JSON). */
const EDIT_ERRORS = errorResponses(400, 409, 413, 415);

const list = createRoute({
  method: 'get',
  path: '/',
  tags,
  summary: 'Every configured server with its status',
  responses: { 200: jsonResponse('The servers', z.object({ servers: z.array(ServerSchema) })), ...errorResponses() },
});
const get = createRoute({
  method: 'get',
  path: '/{name}',
  tags,
  summary: 'One server with its status and (masked) config',
  request: { params: ServerParams },
  responses: { 200: jsonResponse('The server', OneServerSchema), ...errorResponses(404) },
});
const add = createRoute({
  method: 'post',
  path: '/',
  tags,
  summary: 'Add a server (a server entry plus its name, or a preset with its args and env)',
  request: { body: jsonBody(NewServerSchema), headers: IfMatchHeaders },
  responses: { 201: jsonResponse('Added and applied; the server is connecting', OneServerSchema), ...EDIT_ERRORS },
});
const replace = createRoute({
  method: 'put',
  path: '/{name}',
  tags,
  summary: 'Replace a server entry (or create it)',
  request: {
    params: z.object({ name: NewServerName.openapi({ param: { name: 'name', in: 'path' } }) }),
    body: jsonBody(ServerEntrySchema),
    headers: IfMatchHeaders,
  },
  responses: {
    200: jsonResponse('Replaced (or created) and applied', OneServerSchema),
    ...EDIT_ERRORS,
  },
});
const update = createRoute({
  method: 'patch',
  path: '/{name}',
  tags,
  summary: 'Change some fields of a server entry (null removes a field)',
  description:
    'A change of only `allowedTools`/`deniedTools` (or sampling) changes the view without restarting the server. An `env` or `headers` value of `********` (as GET shows it) keeps the value the entry has.',
  request: { params: ServerParams, body: jsonBody(ServerPatchSchema), headers: IfMatchHeaders },
  responses: {
    200: jsonResponse('Updated and applied', OneServerSchema),
    ...errorResponses(400, 404, 409, 413, 415),
  },
});
const remove = createRoute({
  method: 'delete',
  path: '/{name}',
  tags,
  summary: 'Remove a server (its connection is closed)',
  request: { params: ServerParams, headers: IfMatchHeaders },
  responses: {
    200: jsonResponse(
      'Removed: its name, and the server as it was just before',
      z.object({ removed: z.string(), server: ServerSchema.nullable() }),
    ),
    ...errorResponses(404, 409),
  },
});

/** Routes mounted at `/api/servers`: list, get, and (with a writer) add, replace, update, remove. */
export function serversRoutes({
  hub,
  config,
  writer,
  sampling,
  pins,
  env = process.env,
  replica,
}: ServersRoutesDeps): OpenAPIHono {
  const routes = createApi();
  const views = createServerViews(hub, config, sampling, pins, replica);
  // A fleet's sampling spend is every replica's: read again before it is shown (K4).
  routes.openapi(list, async (c) => {
    await sampling?.refresh?.();
    return c.json({ servers: views.all() }, 200);
  });
  routes.openapi(get, async (c) => {
    const { name } = c.req.valid('param');
    await sampling?.refresh?.();
    return c.json({ server: views.one(name) }, 200);
  });
  if (!writer) return routes;

  routes.openapi(add, async (c) => {
    const { name, ...entry } = c.req.valid('json');
    requirePreset(entry, env);
    await writer.edit((doc) => doc.addServer(name, entry), baseOf(c.req.valid('header')));
    return c.json({ server: views.one(name) }, 201);
  });
  routes.openapi(replace, async (c) => {
    const { name } = c.req.valid('param');
    const entry = c.req.valid('json');
    requirePreset(entry, env);
    await writer.edit((doc) => doc.setServer(name, entry), baseOf(c.req.valid('header')));
    // 200 whether it replaced or created: the external contract (SPEC §7) names 200 for PUT.
    return c.json({ server: views.one(name) }, 200);
  });
  routes.openapi(update, async (c) => {
    const { name } = c.req.valid('param');
    const patch = c.req.valid('json') as Record<string, unknown>;
    // `********` in env/headers (as GET shows them) keeps the file's value: a form sends back what it showed.
    await writer.edit(
      (doc) => doc.patchServer(name, keepMaskedSecrets(patch, doc.getServer(name))),
      baseOf(c.req.valid('header')),
    );
    return c.json({ server: views.one(name) }, 200);
  });
  routes.openapi(remove, async (c) => {
    const { name } = c.req.valid('param');
    // A configured server whose actor gave up after crashing has no status, and can still be removed.
    const server = hub.listServers().some((s) => s.name === name) ? views.one(name) : null;
    await writer.edit((doc) => doc.removeServer(name), baseOf(c.req.valid('header')));
    return c.json({ removed: name, server }, 200);
  });
  return routes;
}

/** The writer's options of an edit sent with `If-Match`. */
const baseOf = (headers: { 'if-match'?: number | undefined }) => ({ baseVersion: headers['if-match'] });

/** A preset entry (no command or url of its own) must meet the preset's needs (C7). */
function requirePreset(
  entry: {
    preset?: string | undefined;
    command?: string | undefined;
    url?: string | undefined;
    args?: string[] | undefined;
    env?: Record<string, string> | undefined;
    credentialKey?: string | undefined;
  },
  env: NodeJS.ProcessEnv,
): void {
  if (entry.preset === undefined || entry.command !== undefined || entry.url !== undefined) return;
  checkPresetRequirements(
    entry.preset,
    {
      ...(entry.args ? { args: entry.args } : {}),
      ...(entry.env ? { env: entry.env } : {}),
      ...(entry.credentialKey ? { credentialKey: entry.credentialKey } : {}),
    },
    env,
  );
}
