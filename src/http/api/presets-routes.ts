/**
 * `GET /api/presets` (SPEC C7, section 7): the bundled presets, how each launches and what
 * each needs (arguments, environment variables, a credential).
 * @module
 */
import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { listPresets } from '../../config/presets.js';
import { createApi, errorResponses, jsonResponse } from './api-schemas.js';

/** A bundled preset and what it needs. */
export const PresetSchema = z
  .object({
    name: z.string(),
    description: z.string(),
    package: z.string().openapi({ description: 'The npm or PyPI package, or the URL of a remote server' }),
    installed: z.boolean().openapi({ description: 'Runs without a download (bundled with boternity, or remote)' }),
    command: z.string().optional(),
    args: z.array(z.string()),
    url: z.string().optional(),
    type: z.enum(['http', 'sse']).optional(),
    env: z.record(z.string(), z.string()).optional(),
    needs: z.object({
      args: z.string().optional().openapi({ description: 'The arguments to give, described' }),
      env: z.array(z.string()).optional().openapi({ description: 'Environment variables to set' }),
      credential: z.string().optional().openapi({ description: 'A keystore credential to name in credentialKey' }),
    }),
  })
  .openapi('Preset');

const list = createRoute({
  method: 'get',
  path: '/',
  tags: ['presets'],
  summary: 'The bundled presets and what each needs',
  responses: {
    200: jsonResponse('The presets, by name', z.object({ presets: z.array(PresetSchema) })),
    ...errorResponses(),
  },
});

/** Routes mounted at `/api/presets`. */
export function presetsRoutes(): OpenAPIHono {
  const routes = createApi();
  routes.openapi(list, (c) => c.json({ presets: listPresets() }, 200));
  return routes;
}
