/**
 * A bot's skills (SPEC B3): prompt templates with declared arguments, listed, read, saved
 * by name (created or replaced), deleted, and rendered with arguments. A saved or deleted
 * skill is announced on the bots' change bus, so MCP sessions get `prompts/list_changed`.
 * @module
 */
import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import type { BotDeps } from '../../../bots/bot-deps.js';
import { deleteSkill } from '../../../bots/delete-skill.js';
import { getSkill } from '../../../bots/get-skill.js';
import { listSkills } from '../../../bots/list-skills.js';
import { renderSkill } from '../../../bots/render-skill.js';
import { saveSkill } from '../../../bots/save-skill.js';
import { SkillArgumentSchema } from '../../../bots/skill-schemas.js';
import { createApi, errorResponses, jsonBody, jsonResponse } from '../api-schemas.js';
import { SkillSchema, SlugItemParams, SlugParams } from './bot-api-schemas.js';

const tags = ['bot skills'];
const One = z.object({ skill: SkillSchema });

/** A skill's body; its name is the path's. Checked whole by the bots' own schema (every `{{…}}` declared). */
const SkillBodySchema = z
  .object({
    description: z.string().max(2_000).optional(),
    template: z.string().min(1).max(32_000).openapi({ example: 'Summarize {{text}} in a {{tone}} tone.' }),
    arguments: z.array(SkillArgumentSchema).max(32).optional(),
  })
  .strict()
  .openapi('SkillInput');

const list = createRoute({
  method: 'get',
  path: '/{slug}/skills',
  tags,
  summary: "The bot's skills, by name",
  request: { params: SlugParams },
  responses: {
    200: jsonResponse('The skills', z.object({ skills: z.array(SkillSchema) })),
    ...errorResponses(400, 404),
  },
});
const get = createRoute({
  method: 'get',
  path: '/{slug}/skills/{item}',
  tags,
  summary: 'One skill',
  request: { params: SlugItemParams },
  responses: { 200: jsonResponse('The skill', One), ...errorResponses(400, 404) },
});
const save = createRoute({
  method: 'put',
  path: '/{slug}/skills/{item}',
  tags,
  summary: 'Create or replace a skill',
  request: { params: SlugItemParams, body: jsonBody(SkillBodySchema) },
  responses: {
    200: jsonResponse('Replaced', One),
    201: jsonResponse('Created', One),
    ...errorResponses(400, 404, 413, 415),
  },
});
const remove = createRoute({
  method: 'delete',
  path: '/{slug}/skills/{item}',
  tags,
  summary: 'Delete a skill',
  request: { params: SlugItemParams },
  responses: { 200: jsonResponse('Deleted', z.object({ removed: z.string() })), ...errorResponses(400, 404) },
});
const render = createRoute({
  method: 'post',
  path: '/{slug}/skills/{item}/render',
  tags,
  summary: 'Render a skill with its arguments (what prompts/get answers)',
  request: {
    params: SlugItemParams,
    body: jsonBody(z.object({ arguments: z.record(z.string(), z.string()).default({}) }).strict()),
  },
  responses: { 200: jsonResponse('The text', z.object({ text: z.string() })), ...errorResponses(400, 404, 413, 415) },
});

/** Routes mounted at `/api/bots` for skills. */
export function botSkillRoutes({ bots }: { bots: BotDeps }): OpenAPIHono {
  const routes = createApi();
  routes.openapi(list, async (c) => c.json({ skills: await listSkills(bots, c.req.valid('param').slug) }, 200));
  routes.openapi(get, async (c) => {
    const { slug, item } = c.req.valid('param');
    return c.json({ skill: await getSkill(bots, slug, item) }, 200);
  });
  routes.openapi(save, async (c) => {
    const { slug, item } = c.req.valid('param');
    const { skill, created } = await saveSkill(bots, slug, { ...c.req.valid('json'), name: item });
    bots.changes.publish({ kind: 'skills', slug });
    return created ? c.json({ skill }, 201) : c.json({ skill }, 200);
  });
  routes.openapi(remove, async (c) => {
    const { slug, item } = c.req.valid('param');
    await deleteSkill(bots, slug, item);
    bots.changes.publish({ kind: 'skills', slug });
    return c.json({ removed: item }, 200);
  });
  routes.openapi(render, async (c) => {
    const { slug, item } = c.req.valid('param');
    const { text } = await renderSkill(bots, slug, item, c.req.valid('json').arguments);
    return c.json({ text }, 200);
  });
  return routes;
}
