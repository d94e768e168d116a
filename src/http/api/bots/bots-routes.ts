/**
 * `/api/bots` (SPEC A1, B1, section 7): list the bots of both places (registry and config
 * file), create, read, change and delete one, and read or reset what its provider spent on
 * sampling. A bot found in one place only is listed with `source` and a warning.
 * @module
 */
import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import type { BotDeps } from '../../../bots/bot-deps.js';
import { CreateBotInputSchema, UpdateBotInputSchema } from '../../../bots/bot-schemas.js';
import { createBot } from '../../../bots/create-bot.js';
import { deleteBot } from '../../../bots/delete-bot.js';
import { getBot } from '../../../bots/get-bot.js';
import { listBots } from '../../../bots/list-bots.js';
import { reconcileBots } from '../../../bots/reconcile-bots.js';
import { updateBot } from '../../../bots/update-bot.js';
import type { ConfigWriter } from '../../../config/config-writer.js';
import type { AppConfig } from '../../../config/schema.js';
import { UnknownBotError } from '../../../errors.js';
import { botSamplingTotals, resetBotSamplingUsage } from '../../../storage/bot-sampling-usage-repo.js';
import { createApi, errorResponses, jsonBody, jsonResponse, wholeNumberQuery } from '../api-schemas.js';
import { BotDetailSchema, BotSamplingSchema, SlugParams } from './bot-api-schemas.js';
import { botDetail, configuredView, joinBot } from './bot-detail.js';

/** What the routes need. */
export type BotsRoutesDeps = {
  bots: BotDeps;
  /** The config in force (bots' views). */
  config: () => AppConfig;
  /** Writes the config file: `DELETE …?withView=true` removes the view too. */
  writer?: ConfigWriter;
};

const tags = ['bots'];
const One = z.object({ bot: BotDetailSchema });

const list = createRoute({
  method: 'get',
  path: '/',
  tags,
  summary: 'Every bot, registry and config file joined by slug',
  request: {
    query: z.object({
      category: z.string().min(1).optional(),
      limit: wholeNumberQuery(1, 1_000).optional(),
      offset: wholeNumberQuery(0).optional(),
    }),
  },
  responses: {
    200: jsonResponse('The bots, by slug', z.object({ bots: z.array(BotDetailSchema) })),
    ...errorResponses(400),
  },
});
const create = createRoute({
  method: 'post',
  path: '/',
  tags,
  summary: 'Create a bot in the registry',
  request: { body: jsonBody(CreateBotInputSchema) },
  responses: { 201: jsonResponse('Created', One), ...errorResponses(400, 409, 413, 415) },
});
const get = createRoute({
  method: 'get',
  path: '/{slug}',
  tags,
  summary: 'One bot: profile, view, effective servers, sampling spent',
  request: { params: SlugParams },
  responses: { 200: jsonResponse('The bot', One), ...errorResponses(400, 404) },
});
const update = createRoute({
  method: 'patch',
  path: '/{slug}',
  tags,
  summary: "Change some fields of a bot's profile (null clears an optional one)",
  request: { params: SlugParams, body: jsonBody(UpdateBotInputSchema) },
  responses: { 200: jsonResponse('Changed', One), ...errorResponses(400, 404, 413, 415) },
});
const remove = createRoute({
  method: 'delete',
  path: '/{slug}',
  tags,
  summary: 'Delete a bot with its memories, skills, workflows, chats and tokens',
  description:
    'Its view in the config file stays unless `withView=true` (the bot is then listed as config-only until the view goes too).',
  request: { params: SlugParams, query: z.object({ withView: z.enum(['true', 'false']).optional() }) },
  responses: {
    200: jsonResponse(
      'Deleted: what went from where',
      z.object({ removed: z.string(), profile: z.boolean(), view: z.boolean() }),
    ),
    ...errorResponses(400, 404, 409),
  },
});
const sampling = createRoute({
  method: 'get',
  path: '/{slug}/sampling',
  tags,
  summary: "What the bot's provider spent answering servers' sampling, and its budget (X6)",
  request: { params: SlugParams },
  responses: { 200: jsonResponse('Spent and budget', BotSamplingSchema), ...errorResponses(400, 404) },
});
const resetSampling = createRoute({
  method: 'post',
  path: '/{slug}/sampling/reset',
  tags,
  summary: "Reset the bot's sampling spend to zero",
  request: { params: SlugParams },
  responses: { 200: jsonResponse('Reset', BotSamplingSchema), ...errorResponses(400, 404) },
});

/** The registry's profile of `slug`, or null when it has none (UnknownBotError is the only one swallowed). */
async function profileOf(deps: BotDeps, slug: string) {
  try {
    return await getBot(deps, slug);
  } catch (error) {
    if (error instanceof UnknownBotError) return null;
    throw error;
  }
}

/** Routes mounted at `/api/bots`. */
export function botsRoutes({ bots, config, writer }: BotsRoutesDeps): OpenAPIHono {
  const routes = createApi();
  const detail = async (slug: string) => botDetail(bots.db, config(), slug, await profileOf(bots, slug));

  routes.openapi(list, async (c) => {
    const { category, limit, offset = 0 } = c.req.valid('query');
    const [profiles, spent] = await Promise.all([
      listBots(bots, category ? { category } : {}),
      botSamplingTotals(bots.db),
    ]);
    const current = config();
    // A category filter is the registry's: config-only bots have none.
    const joined = reconcileBots(profiles, category ? {} : current.bots);
    const page = joined.slice(offset, limit === undefined ? undefined : offset + limit);
    return c.json(
      { bots: page.map((b) => joinBot(current, b.slug, b.bot, b.bot ? (spent.get(b.bot.id) ?? 0) : 0)) },
      200,
    );
  });
  routes.openapi(create, async (c) => {
    const bot = await createBot(bots, c.req.valid('json'));
    return c.json({ bot: await botDetail(bots.db, config(), bot.slug, bot) }, 201);
  });
  routes.openapi(get, async (c) => c.json({ bot: await detail(c.req.valid('param').slug) }, 200));
  routes.openapi(update, async (c) => {
    const bot = await updateBot(bots, c.req.valid('param').slug, c.req.valid('json'));
    return c.json({ bot: await botDetail(bots.db, config(), bot.slug, bot) }, 200);
  });
  routes.openapi(remove, async (c) => {
    const { slug } = c.req.valid('param');
    const withView = c.req.valid('query').withView === 'true';
    const hasView = configuredView(config(), slug) !== null;
    const profile = await profileOf(bots, slug);
    if (!profile && !(withView && hasView)) throw new UnknownBotError(slug);
    if (withView && hasView) {
      if (!writer) throw new UnknownBotError(slug);
      // The file first: an edit refused (a config file the service refuses) deletes nothing.
      await writer.edit((doc) => doc.setBot(slug, undefined));
    }
    if (profile) await deleteBot(bots, slug);
    return c.json({ removed: slug, profile: profile !== null, view: withView && hasView }, 200);
  });
  routes.openapi(sampling, async (c) => {
    const found = await detail(c.req.valid('param').slug);
    return c.json(
      { usedTokens: found.samplingUsedTokens, budgetTokens: found.profile?.samplingBudgetTokens ?? null },
      200,
    );
  });
  routes.openapi(resetSampling, async (c) => {
    const bot = await getBot(bots, c.req.valid('param').slug);
    await resetBotSamplingUsage(bots.db, bot.id);
    return c.json({ usedTokens: 0, budgetTokens: bot.samplingBudgetTokens }, 200);
  });
  return routes;
}
