/**
 * A bot's memories (SPEC B3): list (newest first, by category, at most `limit`), add, change
 * (content or category, issue 19), delete.
 * @module
 */
import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { addMemory } from '../../../bots/add-memory.js';
import type { BotDeps } from '../../../bots/bot-deps.js';
import { deleteMemory } from '../../../bots/delete-memory.js';
import { listMemories } from '../../../bots/list-memories.js';
import { AddMemoryInputSchema, UpdateMemoryInputSchema } from '../../../bots/memory-schemas.js';
import { updateMemory } from '../../../bots/update-memory.js';
import { createApi, errorResponses, jsonBody, jsonResponse, wholeNumberQuery } from '../api-schemas.js';
import { MemorySchema, SlugItemParams, SlugParams } from './bot-api-schemas.js';

const tags = ['bot memories'];

const list = createRoute({
  method: 'get',
  path: '/{slug}/memories',
  tags,
  summary: "The bot's memories, newest first",
  request: {
    params: SlugParams,
    query: z.object({ category: z.string().min(1).optional(), limit: wholeNumberQuery(1, 500).optional() }),
  },
  responses: {
    200: jsonResponse('The memories', z.object({ memories: z.array(MemorySchema) })),
    ...errorResponses(400, 404),
  },
});
const add = createRoute({
  method: 'post',
  path: '/{slug}/memories',
  tags,
  summary: 'Add a memory (category defaults to general)',
  request: { params: SlugParams, body: jsonBody(AddMemoryInputSchema) },
  responses: {
    201: jsonResponse('Added', z.object({ memory: MemorySchema })),
    ...errorResponses(400, 404, 413, 415),
  },
});
const change = createRoute({
  method: 'patch',
  path: '/{slug}/memories/{item}',
  tags,
  summary: "Change a memory's content or category (its id and createdAt stay)",
  request: { params: SlugItemParams, body: jsonBody(UpdateMemoryInputSchema) },
  responses: {
    200: jsonResponse('Changed', z.object({ memory: MemorySchema })),
    ...errorResponses(400, 404, 413, 415),
  },
});
const remove = createRoute({
  method: 'delete',
  path: '/{slug}/memories/{item}',
  tags,
  summary: 'Delete a memory by id',
  request: { params: SlugItemParams },
  responses: { 200: jsonResponse('Deleted', z.object({ removed: z.string() })), ...errorResponses(400, 404) },
});

/** Routes mounted at `/api/bots` for memories. */
export function botMemoryRoutes({ bots }: { bots: BotDeps }): OpenAPIHono {
  const routes = createApi();
  routes.openapi(list, async (c) => {
    const { category, limit } = c.req.valid('query');
    const memories = await listMemories(bots, c.req.valid('param').slug, {
      ...(category ? { category } : {}),
      ...(limit !== undefined ? { limit } : {}),
    });
    return c.json({ memories }, 200);
  });
  routes.openapi(add, async (c) => {
    const memory = await addMemory(bots, c.req.valid('param').slug, c.req.valid('json'));
    return c.json({ memory }, 201);
  });
  routes.openapi(change, async (c) => {
    const { slug, item } = c.req.valid('param');
    return c.json({ memory: await updateMemory(bots, slug, item, c.req.valid('json')) }, 200);
  });
  routes.openapi(remove, async (c) => {
    const { slug, item } = c.req.valid('param');
    await deleteMemory(bots, slug, item);
    return c.json({ removed: item }, 200);
  });
  return routes;
}
