/**
 * `GET /api/tools/search?q=&bot=&limit=` (issue 24): a view's tools ranked for a query, as
 * an agent's `search_tools` ranks them (the same index, the view applied first: denied and
 * quarantined tools are never found). The whole view without `bot`, that bot's view with
 * it. Behind `bnity mcp search` and the UI's tool filter.
 * @module
 */
import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { HubError } from '../../errors.js';
import type { Gateway } from '../../gateway/index.js';
import { createApi, errorResponses, jsonResponse, wholeNumberQuery } from './api-schemas.js';

const SearchQuery = z
  .object({
    q: z.string().min(1, 'expected a query').max(500, 'at most 500 characters').openapi({ example: 'open an issue' }),
    bot: z
      .string()
      .regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'bot slugs are lowercase letters, digits and -')
      .optional(),
    limit: wholeNumberQuery(1, 200).optional(),
  })
  .strict();

const Hit = z.object({ name: z.string(), title: z.string().optional(), description: z.string(), score: z.number() });

const search = createRoute({
  method: 'get',
  path: '/search',
  tags: ['tools'],
  summary: "A view's tools ranked for a query (words, `select:a,b`, or `regex:pattern`), best first",
  request: { query: SearchQuery },
  responses: {
    200: jsonResponse(
      'The tools found, the number searched, and the estimated tokens of the view’s full tool list (JSON characters / 4)',
      z.object({
        query: z.string(),
        view: z.string(),
        tools: z.array(Hit),
        searched: z.number().int(),
        estimatedTokens: z.number().int(),
      }),
    ),
    ...errorResponses(400, 404),
  },
});

/** Routes mounted at `/api/tools`. */
export function toolSearchRoutes({ gateway }: { gateway: Gateway }): OpenAPIHono {
  const routes = createApi();
  routes.openapi(search, async (c) => {
    const { q, bot, limit = 10 } = c.req.valid('query');
    const spec = bot ? ({ kind: 'bot', slug: bot } as const) : ({ kind: 'all' } as const);
    await gateway.checkView(spec);
    const found = gateway.searchTools(spec, q, limit);
    if (found instanceof Error) throw new HubError('bad_request', found.message);
    const tools = found.hits.map(({ name, title, summary, score }) => ({
      name,
      ...(title ? { title } : {}),
      description: summary,
      score,
    }));
    const view = bot ? `bot:${bot}` : 'all';
    return c.json({ query: q, view, tools, searched: found.searched, estimatedTokens: found.estimatedTokens }, 200);
  });
  return routes;
}
