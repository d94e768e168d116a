/**
 * `GET /api/config` (SPEC A1, C6): the config in force (validated, defaults filled in), with
 * every secret masked: env and header values, URL passwords, secret-looking arguments and keys;
 * in cluster mode its version too (ADR 040), what an edit's `If-Match` names.
 * @module
 */
import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppConfig } from '../../config/schema.js';
import { maskConfig } from '../../guard/mask-secrets.js';
import { createApi, errorResponses, jsonResponse } from './api-schemas.js';

const get = createRoute({
  method: 'get',
  path: '/',
  tags: ['config'],
  summary: 'The effective config, secrets masked',
  responses: {
    200: jsonResponse(
      'The file it was read from (null in cluster mode), the version in force (cluster mode; null for a file) and the config in force',
      z.object({
        file: z.string().nullable(),
        version: z.number().int().nullable(),
        config: z.record(z.string(), z.unknown()),
      }),
    ),
    ...errorResponses(),
  },
});

/** Routes mounted at `/api/config`. */
export function configRoutes({
  config,
  file,
  version = () => null,
}: {
  config: () => AppConfig;
  file: string | null;
  /** The config version in force (cluster mode, ADR 040): what an edit's `If-Match` names. */
  version?: () => number | null;
}): OpenAPIHono {
  const routes = createApi();
  routes.openapi(get, (c) =>
    c.json({ file, version: version(), config: maskConfig(config()) as Record<string, unknown> }, 200),
  );
  return routes;
}
