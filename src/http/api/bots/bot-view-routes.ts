/**
 * A bot's view (SPEC B2, C4, section 7 `bots.{slug}`): replaced whole (`PUT …/overrides`),
 * or one change at a time (a server added or removed, tools allowed or denied). Each edit
 * is written to the config file by the service's writer (locked, validated, atomic) and
 * applied at once, so sessions of the bot see the new view and get `list_changed`.
 * @module
 */
import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import type { BotDeps } from '../../../bots/bot-deps.js';
import { BotSlugSchema } from '../../../bots/bot-schemas.js';
import { getBot } from '../../../bots/get-bot.js';
import { parseInput } from '../../../bots/parse-input.js';
import type { ConfigWriter } from '../../../config/config-writer.js';
import { type BotViewChange, editBotView, requireConfiguredServers } from '../../../config/edit-bot-view.js';
import type { AppConfig } from '../../../config/schema.js';
import { UnknownBotError } from '../../../errors.js';
import { createApi, errorResponses, jsonBody, jsonResponse } from '../api-schemas.js';
import {
  BotDetailSchema,
  BotViewInputSchema,
  PermissionEditSchema,
  SlugParams,
  SlugServerParams,
} from './bot-api-schemas.js';
import { type BotDetail, botDetail, configuredView } from './bot-detail.js';

const tags = ['bots'];
const One = z.object({ bot: BotDetailSchema });
const EDIT_ERRORS = errorResponses(400, 404, 409, 413, 415);

const overrides = createRoute({
  method: 'put',
  path: '/{slug}/overrides',
  tags,
  summary: "Replace the bot's view: additionalServers, removedServers, toolPermissions",
  request: { params: SlugParams, body: jsonBody(BotViewInputSchema) },
  responses: { 200: jsonResponse('Written and applied', One), ...EDIT_ERRORS },
});
const addServer = createRoute({
  method: 'post',
  path: '/{slug}/servers/{server}',
  tags,
  summary: 'Add a server to the view (additionalServers; out of removedServers)',
  request: { params: SlugServerParams },
  responses: { 200: jsonResponse('Written and applied', One), ...EDIT_ERRORS },
});
const removeServer = createRoute({
  method: 'delete',
  path: '/{slug}/servers/{server}',
  tags,
  summary: 'Remove a server from the view (removedServers; out of additionalServers)',
  request: { params: SlugServerParams },
  responses: { 200: jsonResponse('Written and applied', One), ...EDIT_ERRORS },
});
const permissions = createRoute({
  method: 'patch',
  path: '/{slug}/permissions/{server}',
  tags,
  summary: 'Allow or deny tools of one server to the bot (toolPermissions.{server})',
  description:
    'Each tool in `allow` joins `allowed` (then only allowed tools are served) and leaves `denied`; each in `deny` joins `denied` and leaves `allowed`. Deny wins when a tool is in both lists.',
  request: { params: SlugServerParams, body: jsonBody(PermissionEditSchema) },
  responses: { 200: jsonResponse('Written and applied', One), ...EDIT_ERRORS },
});
const clearPermissions = createRoute({
  method: 'delete',
  path: '/{slug}/permissions/{server}',
  tags,
  summary: "Drop the bot's allow and deny lists for one server",
  request: { params: SlugServerParams },
  responses: { 200: jsonResponse('Written and applied', One), ...EDIT_ERRORS },
});

/** Routes mounted at `/api/bots` that edit views; only with a config writer. */
export function botViewRoutes({
  bots,
  config,
  writer,
}: {
  bots: BotDeps;
  config: () => AppConfig;
  writer: ConfigWriter;
}): OpenAPIHono {
  const routes = createApi();

  /** Throw unless `slug` is a bot in either place; its registry profile, or null. */
  const requireBot = async (slug: string) => {
    parseInput(BotSlugSchema, slug, 'bot slug');
    const profile = await getBot(bots, slug).catch((error: unknown) => {
      if (error instanceof UnknownBotError) return null;
      throw error;
    });
    if (!profile && !configuredView(config(), slug)) throw new UnknownBotError(slug);
    return profile;
  };
  const edit = async (
    slug: string,
    change: (entry: Record<string, unknown> | undefined) => Record<string, unknown>,
  ) => {
    const profile = await requireBot(slug);
    await writer.edit((doc) => doc.setBot(slug, change(doc.getBot(slug))));
    // A view edit is a change of the bot (SPEC B5): `/api/events` and the sessions that see it hear of it.
    bots.events.publish({
      type: 'bot_updated',
      server: null,
      bot: slug,
      name: profile?.name ?? slug,
      fields: ['view'],
    });
    return botDetail(bots.db, config(), slug, profile);
  };
  const one = (change: BotViewChange) => (entry: Record<string, unknown> | undefined) => editBotView(entry, change);
  const answer = (detail: BotDetail) => ({ bot: detail });

  routes.openapi(overrides, async (c) => {
    const { slug } = c.req.valid('param');
    const view = c.req.valid('json');
    const servers = config().mcpServers;
    requireConfiguredServers(view.additionalServers, servers, 'additionalServers');
    requireConfiguredServers(view.removedServers, servers, 'removedServers');
    requireConfiguredServers(Object.keys(view.toolPermissions), servers, 'toolPermissions');
    const detail = await edit(slug, (entry) => ({ ...(entry ?? {}), ...view }));
    return c.json(answer(detail), 200);
  });
  routes.openapi(addServer, async (c) => {
    const { slug, server } = c.req.valid('param');
    requireConfiguredServers([server], config().mcpServers, 'server');
    return c.json(answer(await edit(slug, one({ kind: 'add-server', server }))), 200);
  });
  routes.openapi(removeServer, async (c) => {
    const { slug, server } = c.req.valid('param');
    requireConfiguredServers([server], config().mcpServers, 'server');
    return c.json(answer(await edit(slug, one({ kind: 'remove-server', server }))), 200);
  });
  routes.openapi(permissions, async (c) => {
    const { slug, server } = c.req.valid('param');
    const { allow, deny } = c.req.valid('json');
    requireConfiguredServers([server], config().mcpServers, 'server');
    const detail = await edit(slug, (entry) =>
      editBotView(editBotView(entry, { kind: 'allow', server, tools: allow }), { kind: 'deny', server, tools: deny }),
    );
    return c.json(answer(detail), 200);
  });
  routes.openapi(clearPermissions, async (c) => {
    const { slug, server } = c.req.valid('param');
    return c.json(answer(await edit(slug, one({ kind: 'clear-permissions', server }))), 200);
  });
  return routes;
}
