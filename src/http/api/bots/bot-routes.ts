/**
 * Every route under `/api/bots` (SPEC A1, B1–B4) on one OpenAPIHono: the service mounts it
 * in its API, and the CLI runs it in-process on the data directory's files when no service
 * is running, so both answer alike.
 * @module
 */
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { BotDeps } from '../../../bots/bot-deps.js';
import type { ConfigWriter } from '../../../config/config-writer.js';
import type { AppConfig } from '../../../config/schema.js';
import { createApi } from '../api-schemas.js';
import { botChatRoutes } from './bot-chat-routes.js';
import { botMemoryRoutes } from './bot-memory-routes.js';
import { botSkillRoutes } from './bot-skill-routes.js';
import { botViewRoutes } from './bot-view-routes.js';
import { botWorkflowRoutes } from './bot-workflow-routes.js';
import { botsRoutes } from './bots-routes.js';

/** The bots' routes, to mount at `/api/bots`; the view edits need a config writer. */
export function botRoutes({
  bots,
  config,
  writer,
}: {
  bots: BotDeps;
  config: () => AppConfig;
  writer?: ConfigWriter | undefined;
}): OpenAPIHono {
  const routes = createApi();
  routes.route('/', botsRoutes({ bots, config, ...(writer ? { writer } : {}) }));
  if (writer) routes.route('/', botViewRoutes({ bots, config, writer }));
  routes.route('/', botMemoryRoutes({ bots }));
  routes.route('/', botSkillRoutes({ bots }));
  routes.route('/', botWorkflowRoutes({ bots }));
  routes.route('/', botChatRoutes({ bots }));
  return routes;
}
