/**
 * A bot's workflows (SPEC B3): named sequences of tool calls, listed, read, saved by name
 * (every `{{steps.…}}` reference checked), deleted, and run step by step through the
 * gateway's call path for the bot's view.
 * @module
 */
import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import type { BotDeps } from '../../../bots/bot-deps.js';
import { deleteWorkflow } from '../../../bots/delete-workflow.js';
import { getWorkflow } from '../../../bots/get-workflow.js';
import { listWorkflows } from '../../../bots/list-workflows.js';
import { runWorkflow } from '../../../bots/run-workflow.js';
import { saveWorkflow } from '../../../bots/save-workflow.js';
import { MAX_WORKFLOW_STEPS, WorkflowStepSchema } from '../../../bots/workflow-schemas.js';
import { createApi, errorResponses, jsonBody, jsonResponse } from '../api-schemas.js';
import { SlugItemParams, SlugParams, WorkflowRunSchema, WorkflowSchema } from './bot-api-schemas.js';

const tags = ['bot workflows'];
const One = z.object({ workflow: WorkflowSchema });

/** A workflow's body; its name is the path's. Checked whole by the bots' own schema. */
const WorkflowBodySchema = z
  .object({
    description: z.string().max(2_000).optional(),
    steps: z.array(WorkflowStepSchema).min(1).max(MAX_WORKFLOW_STEPS),
  })
  .strict()
  .openapi('WorkflowInput');

const list = createRoute({
  method: 'get',
  path: '/{slug}/workflows',
  tags,
  summary: "The bot's workflows, by name",
  request: { params: SlugParams },
  responses: {
    200: jsonResponse('The workflows', z.object({ workflows: z.array(WorkflowSchema) })),
    ...errorResponses(400, 404),
  },
});
const get = createRoute({
  method: 'get',
  path: '/{slug}/workflows/{item}',
  tags,
  summary: 'One workflow',
  request: { params: SlugItemParams },
  responses: { 200: jsonResponse('The workflow', One), ...errorResponses(400, 404) },
});
const save = createRoute({
  method: 'put',
  path: '/{slug}/workflows/{item}',
  tags,
  summary: 'Create or replace a workflow',
  request: { params: SlugItemParams, body: jsonBody(WorkflowBodySchema) },
  responses: {
    200: jsonResponse('Replaced', One),
    201: jsonResponse('Created', One),
    ...errorResponses(400, 404, 413, 415),
  },
});
const remove = createRoute({
  method: 'delete',
  path: '/{slug}/workflows/{item}',
  tags,
  summary: 'Delete a workflow',
  request: { params: SlugItemParams },
  responses: { 200: jsonResponse('Deleted', z.object({ removed: z.string() })), ...errorResponses(400, 404) },
});
const run = createRoute({
  method: 'post',
  path: '/{slug}/workflows/{item}/run',
  tags,
  summary: 'Run a workflow; a failed step stops it and is named in the run',
  request: { params: SlugItemParams, body: jsonBody(z.object({ input: z.unknown().optional() }).strict()) },
  responses: {
    200: jsonResponse('The run, succeeded or failed', z.object({ run: WorkflowRunSchema })),
    ...errorResponses(400, 404, 413, 415),
  },
});

/** Routes mounted at `/api/bots` for workflows. */
export function botWorkflowRoutes({ bots }: { bots: BotDeps }): OpenAPIHono {
  const routes = createApi();
  routes.openapi(list, async (c) => c.json({ workflows: await listWorkflows(bots, c.req.valid('param').slug) }, 200));
  routes.openapi(get, async (c) => {
    const { slug, item } = c.req.valid('param');
    return c.json({ workflow: await getWorkflow(bots, slug, item) }, 200);
  });
  routes.openapi(save, async (c) => {
    const { slug, item } = c.req.valid('param');
    const { workflow, created } = await saveWorkflow(bots, slug, { ...c.req.valid('json'), name: item });
    return created ? c.json({ workflow }, 201) : c.json({ workflow }, 200);
  });
  routes.openapi(remove, async (c) => {
    const { slug, item } = c.req.valid('param');
    await deleteWorkflow(bots, slug, item);
    return c.json({ removed: item }, 200);
  });
  routes.openapi(run, async (c) => {
    const { slug, item } = c.req.valid('param');
    const { input } = c.req.valid('json');
    const result = await runWorkflow(
      bots,
      slug,
      { name: item, ...(input !== undefined ? { input } : {}) },
      {
        signal: c.req.raw.signal,
      },
    );
    return c.json({ run: result }, 200);
  });
  return routes;
}
