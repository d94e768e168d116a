/**
 * `POST /api/servers/{name}/complete` (issue 19): the values a server suggests for an
 * argument of one of its prompts or resource templates (MCP `completion/complete`), asked
 * as an agent would through the gateway ({@link askAsAdmin}); the values come back sanitized.
 * @module
 */
import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { createApi, errorResponses, jsonBody, jsonResponse, ServerParams } from './api-schemas.js';
import { type AskDeps, askAsAdmin } from './ask-as-admin.js';

const Ref = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ref/prompt'), name: z.string().min(1, 'expected a prompt name') }).strict(),
  z.object({ type: z.literal('ref/resource'), uri: z.string().min(1, 'expected a URI template') }).strict(),
]);

/** The body of a completion: what the argument belongs to, the argument as typed so far, the others filled. */
export const CompleteBodySchema = z
  .object({
    ref: Ref.openapi({
      description: 'A prompt by name, or a resource template by its `uriTemplate`',
      example: { type: 'ref/prompt', name: 'summarize' },
    }),
    argument: z
      .object({ name: z.string().min(1, 'expected an argument name'), value: z.string() })
      .strict()
      .openapi({ example: { name: 'language', value: 'fr' } }),
    context: z
      .object({ arguments: z.record(z.string(), z.string()).optional() })
      .strict()
      .optional()
      .openapi({ description: 'The arguments already filled, which some servers narrow the values by' }),
  })
  .strict()
  .openapi('Complete');

/** What a completion answers. */
export const CompleteResultSchema = z
  .object({
    completion: z.object({
      values: z.array(z.string()).openapi({ description: 'At most 100' }),
      total: z.number().int().optional(),
      hasMore: z.boolean().optional(),
    }),
  })
  .openapi('CompleteResult', { description: 'As MCP `completion/complete` answers it, each value sanitized' });

const complete = createRoute({
  method: 'post',
  path: '/{name}/complete',
  tags: ['servers'],
  summary: "Values the server suggests for a prompt's or resource template's argument",
  request: { params: ServerParams, body: jsonBody(CompleteBodySchema) },
  responses: {
    200: jsonResponse('The suggestions', CompleteResultSchema),
    ...errorResponses(400, 404, 409, 413, 415, 429, 502, 503),
  },
});

/** Routes mounted at `/api/servers`. */
export function completeRoutes(deps: AskDeps): OpenAPIHono {
  const routes = createApi();
  routes.openapi(complete, async (c) => {
    const { name } = c.req.valid('param');
    const body = c.req.valid('json');
    const of = body.ref.type === 'ref/prompt' ? `prompt "${body.ref.name}"` : `template ${body.ref.uri}`;
    const result = await askAsAdmin(
      deps,
      { server: name, capability: 'completions', what: `completing "${body.argument.name}" of ${of}` },
      (asker) =>
        asker.complete({
          ref: body.ref,
          argument: body.argument,
          ...(body.context?.arguments ? { context: { arguments: body.context.arguments } } : {}),
        }),
    );
    const { values, total, hasMore } = result.completion;
    return c.json(
      {
        completion: {
          values,
          ...(total === undefined ? {} : { total }),
          ...(hasMore === undefined ? {} : { hasMore }),
        },
      },
      200,
    );
  });
  return routes;
}
