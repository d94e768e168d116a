/**
 * `POST /api/servers/import` (SPEC A4, C1): add the servers of another client's config file
 * (Claude Desktop, Cursor, VS Code, or a file of their format on the service's machine), or
 * servers given inline. Names are kept; a name already present is skipped unless `force`.
 * @module
 */
import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import type { ConfigWriter } from '../../config/config-writer.js';
import {
  CLIENT_KINDS,
  type ClientKind,
  clientConfigPath,
  readClientServers,
} from '../../config/import-client-config.js';
import { HubError } from '../../errors.js';
import { createApi, errorResponses, jsonBody, jsonResponse } from './api-schemas.js';

const ImportBodySchema = z
  .object({
    servers: z
      .record(z.string(), z.record(z.string(), z.unknown()))
      .optional()
      .openapi({ description: 'Server entries by name, as a client file has them' }),
    from: z
      .string()
      .min(1)
      .optional()
      .openapi({ description: `${CLIENT_KINDS.join(', ')}, or the path of such a file (read by the service)` }),
    force: z.boolean().default(false).openapi({ description: 'Replace servers whose names are already present' }),
    keepSecretsInline: z.boolean().default(false).openapi({
      description:
        'Keep env values whose names look secret (*TOKEN*, *KEY*, *SECRET*, *PASSWORD*) in the config file instead of moving them to the keystore',
    }),
  })
  .strict()
  .refine((body) => (body.servers === undefined) !== (body.from === undefined), {
    message: 'give either "servers" or "from"',
    path: ['servers'],
  })
  .openapi('Import', { example: { from: 'claude-desktop', force: false } });

const ImportResultSchema = z
  .object({
    renamed: z.array(z.object({ from: z.string(), to: z.string() })).openapi({
      description: 'Names boternity does not take (a space, a slash: `"Brave Search"`) and what they were imported as',
    }),
    added: z.array(z.string()),
    skipped: z.array(z.string()).openapi({ description: 'Already present: left as they are' }),
    replaced: z.array(z.string()).openapi({ description: 'Replaced (with force)' }),
    movedSecrets: z.array(z.object({ server: z.string(), variable: z.string(), credential: z.string() })).openapi({
      description:
        'Env values moved to the keystore: the server, the variable, and the keystore entry its `$' +
        '{secret:…}` reference names (never the value)',
    }),
    from: z.string().nullable().openapi({ description: 'The file read, if any' }),
  })
  .openapi('ImportResult');

const importServers = createRoute({
  method: 'post',
  path: '/import',
  tags: ['servers'],
  summary: "Import servers from another client's config file, or given inline",
  request: { body: jsonBody(ImportBodySchema) },
  responses: {
    200: jsonResponse('What was added, skipped and replaced', ImportResultSchema),
    ...errorResponses(400, 409, 413, 415),
  },
});

/** Routes mounted at `/api/servers` (before `/{name}`). */
export function importRoutes({
  writer,
  env = process.env,
}: {
  writer: ConfigWriter;
  env?: NodeJS.ProcessEnv;
}): OpenAPIHono {
  const routes = createApi();
  routes.openapi(importServers, async (c) => {
    const body = c.req.valid('json');
    let from: string | null = null;
    let servers = body.servers;
    if (body.from !== undefined) {
      from = (CLIENT_KINDS as readonly string[]).includes(body.from)
        ? clientConfigPath(body.from as ClientKind, env)
        : body.from;
      servers = await readClientServers(from);
    }
    if (servers === undefined) throw new HubError('bad_request', 'give either "servers" or "from"');
    const result = await writer.importServers(servers, {
      force: body.force,
      keepSecretsInline: body.keepSecretsInline,
    });
    return c.json({ ...result, from }, 200);
  });
  return routes;
}
