/**
 * `POST /api/servers/{name}/prompts/{prompt}/get` (issue 19): get a prompt of a server with
 * its arguments as an agent would, through the gateway ({@link askAsAdmin}). The answer is
 * MCP's `prompts/get` result after the sanitizer: the messages the prompt expands to.
 * @module
 */
import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { createApi, errorResponses, jsonBody, jsonResponse, ServerParams } from './api-schemas.js';
import { type AskDeps, askAsAdmin } from './ask-as-admin.js';

/** The body of a get: the prompt's arguments, strings by name (MCP's prompt arguments are strings). */
export const GetPromptBodySchema = z
  .object({
    arguments: z
      .record(z.string(), z.string())
      .optional()
      .openapi({ description: "The prompt's arguments", example: { city: 'Lyon' } }),
  })
  .strict()
  .openapi('GetPrompt');

/** One message of a prompt: its role and one content (text, image, audio, resource link or embedded resource). */
export const PromptMessageSchema = z
  .object({ role: z.enum(['user', 'assistant']), content: z.record(z.string(), z.unknown()) })
  .openapi('PromptMessage');

/** What a get answers. */
export const GetPromptResultSchema = z
  .object({ description: z.string().optional(), messages: z.array(PromptMessageSchema) })
  .openapi('GetPromptResult', { description: 'As MCP `prompts/get` answers it, after the sanitizer' });

const PromptParams = ServerParams.extend({
  prompt: z.string().openapi({ param: { name: 'prompt', in: 'path' }, example: 'summarize' }),
});

const getPrompt = createRoute({
  method: 'post',
  path: '/{name}/prompts/{prompt}/get',
  tags: ['servers'],
  summary: 'Get a prompt with its arguments as an agent would: the caps, sanitizer and audit apply',
  request: { params: PromptParams, body: jsonBody(GetPromptBodySchema) },
  responses: {
    200: jsonResponse('The messages', GetPromptResultSchema),
    ...errorResponses(400, 404, 409, 413, 415, 429, 502, 503),
  },
});

/** Routes mounted at `/api/servers`. */
export function getPromptRoutes(deps: AskDeps): OpenAPIHono {
  const routes = createApi();
  routes.openapi(getPrompt, async (c) => {
    const { name, prompt } = c.req.valid('param');
    const { arguments: args } = c.req.valid('json');
    const result = await askAsAdmin(
      deps,
      { server: name, capability: 'prompts', what: `getting prompt "${prompt}"` },
      (asker) => asker.getPrompt({ name: prompt, ...(args ? { arguments: args } : {}) }),
    );
    return c.json(
      { messages: result.messages, ...(result.description === undefined ? {} : { description: result.description }) },
      200,
    );
  });
  return routes;
}
