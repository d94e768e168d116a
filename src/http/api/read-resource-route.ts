/**
 * `POST /api/servers/{name}/resources/read` (issue 19): read one resource of a server as an
 * agent would, through the gateway ({@link askAsAdmin}): a listed URI or one a template of
 * the server matches. The answer is MCP's `resources/read` result after the sanitizer: text
 * contents as text, binary ones base64 in `blob`.
 * @module
 */
import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { createApi, errorResponses, jsonBody, jsonResponse, ServerParams } from './api-schemas.js';
import { type AskDeps, askAsAdmin } from './ask-as-admin.js';

/** The body of a read: the resource's URI, as the server lists it or fills one of its templates. */
export const ReadResourceBodySchema = z
  .object({
    uri: z
      .string()
      .min(1, 'expected a URI')
      .max(8_192, 'expected a URI of at most 8192 characters')
      .openapi({ example: 'file:///srv/files/README.md' }),
  })
  .strict()
  .openapi('ReadResource');

/** One content of a read: `text`, or `blob` (base64), with its URI and media type. */
export const ResourceContentsSchema = z
  .object({
    uri: z.string(),
    mimeType: z.string().optional(),
    text: z.string().optional(),
    blob: z.string().optional().openapi({ description: 'Binary contents, base64' }),
  })
  .passthrough()
  .openapi('ResourceContents');

/** What a read answers. */
export const ReadResourceResultSchema = z
  .object({ contents: z.array(ResourceContentsSchema) })
  .openapi('ReadResourceResult', { description: 'As MCP `resources/read` answers it, after the sanitizer' });

const readResource = createRoute({
  method: 'post',
  path: '/{name}/resources/read',
  tags: ['servers'],
  summary: 'Read a resource as an agent would: the caps, sanitizer and audit apply',
  request: { params: ServerParams, body: jsonBody(ReadResourceBodySchema) },
  responses: {
    200: jsonResponse('The contents', ReadResourceResultSchema),
    ...errorResponses(400, 404, 409, 413, 415, 429, 502, 503),
  },
});

/** Routes mounted at `/api/servers`. */
export function readResourceRoutes(deps: AskDeps): OpenAPIHono {
  const routes = createApi();
  routes.openapi(readResource, async (c) => {
    const { name } = c.req.valid('param');
    const { uri } = c.req.valid('json');
    const result = await askAsAdmin(deps, { server: name, capability: 'resources', what: `reading ${uri}` }, (asker) =>
      asker.readResource({ uri }),
    );
    return c.json({ contents: result.contents }, 200);
  });
  return routes;
}
