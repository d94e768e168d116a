/**
 * Running a workflow (SPEC B3, G8 `trigger_workflow`): its steps in order, each through the
 * bot's tool port (so each call is permissioned, sanitized and audited under the bot), each
 * with a timeout. The run stops at the first step that fails, and its result names it.
 * Its start and its end are published (`workflow_started`, `workflow_finished`, issue 18), and
 * each step as it ends (`workflow_step_finished`, issue 19), all naming the run by `runId`.
 * @module
 */

import { randomUUID } from 'node:crypto';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Context } from '@opentelemetry/api';
import { toErrorInfo } from '../../machines/index.js';
import { raceSignal } from '../upstream/race-signal.js';
import type { BotDeps } from './bot-deps.js';
import { chatExcerpt } from './chat-excerpt.js';
import { getWorkflow } from './get-workflow.js';
import { parseInput } from './parse-input.js';
import { renderValue } from './resolve-template.js';
import { toolResultText } from './tool-result-text.js';
import { RunWorkflowInputSchema, type WorkflowStep } from './workflow-schemas.js';
import { startWorkflowSpans } from './workflow-spans.js';

/** What happened to one step; `skipped` steps come after the failed one. */
export type WorkflowStepRun = {
  id: string;
  tool: string;
  status: 'succeeded' | 'failed' | 'skipped';
  durationMs: number | null;
  result: CallToolResult | null;
  error: string | null;
};

/** A finished run: `failedStep` and `error` say where and why it stopped; `output` is the last step's result. */
export type WorkflowRun = {
  bot: string;
  workflow: string;
  runId: string;
  status: 'succeeded' | 'failed';
  failedStep: string | null;
  error: string | null;
  steps: WorkflowStepRun[];
  output: CallToolResult | null;
};

type Scope = { input: unknown; steps: Record<string, { result: CallToolResult; text: string }> };

/** Run workflow `{ name, input? }` of bot `slug`; throws only for a bad request (unknown bot or workflow). */
export async function runWorkflow(
  deps: Pick<BotDeps, 'db' | 'tools' | 'limits' | 'events' | 'secrets' | 'tracer'>,
  slug: string,
  request: unknown,
  { signal }: { signal?: AbortSignal } = {},
): Promise<WorkflowRun> {
  const { name, input } = parseInput(RunWorkflowInputSchema, request, 'workflow run');
  const workflow = await getWorkflow(deps, slug, name);
  const started = performance.now();
  const runId = randomUUID();
  // Bounded and masked as a chat excerpt: the run's own result has the error whole.
  const excerpt = (error: string | null) => (error === null ? null : chatExcerpt(error, deps.secrets).excerpt);
  deps.events.publish({
    type: 'workflow_started',
    server: null,
    bot: slug,
    workflow: name,
    runId,
    steps: workflow.steps.length,
  });
  // Traces on: the run and each step are spans (issue 21).
  const spans = startWorkflowSpans(deps.tracer, slug, name, runId);
  const scope: Scope = { input: input ?? {}, steps: {} };
  const steps: WorkflowStepRun[] = [];
  let failure: WorkflowStepRun | null = null;
  for (const step of workflow.steps) {
    if (failure) {
      steps.push({ id: step.id, tool: step.tool, status: 'skipped', durationMs: null, result: null, error: null });
      continue;
    }
    const span = spans.step(step.id, step.tool);
    const run = await runStep(deps, slug, step, scope, signal, span.context);
    span.end(run.error);
    deps.events.publish({
      type: 'workflow_step_finished',
      server: null,
      bot: slug,
      workflow: name,
      runId,
      step: run.id,
      tool: run.tool,
      index: steps.length,
      status: run.status === 'failed' ? 'failed' : 'succeeded',
      durationMs: run.durationMs ?? 0,
      error: excerpt(run.error),
    });
    steps.push(run);
    if (run.status === 'failed') failure = run;
  }
  const last = steps.at(-1);
  const run: WorkflowRun = {
    bot: slug,
    workflow: name,
    runId,
    status: failure ? 'failed' : 'succeeded',
    failedStep: failure?.id ?? null,
    error: failure?.error ?? null,
    steps,
    output: failure ? null : (last?.result ?? null),
  };
  spans.end(run.failedStep, run.error);
  deps.events.publish({
    type: 'workflow_finished',
    server: null,
    bot: slug,
    workflow: name,
    runId,
    status: run.status,
    failedStep: run.failedStep,
    error: excerpt(run.error),
    durationMs: Math.round(performance.now() - started),
  });
  return run;
}

async function runStep(
  { tools, limits }: Pick<BotDeps, 'tools' | 'limits'>,
  slug: string,
  step: WorkflowStep,
  scope: Scope,
  outer: AbortSignal | undefined,
  trace: Context | null,
): Promise<WorkflowStepRun> {
  const timeoutMs = step.timeoutMs ?? limits.stepTimeoutMs;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = outer ? AbortSignal.any([outer, timeout]) : timeout;
  const started = performance.now();
  const done = (result: CallToolResult | null, error: string | null): WorkflowStepRun => ({
    id: step.id,
    tool: step.tool,
    status: error === null ? 'succeeded' : 'failed',
    durationMs: Math.round(performance.now() - started),
    result,
    error: error === null ? null : `step "${step.id}" (${step.tool}) ${error}`,
  });
  try {
    const args = renderValue(step.arguments, scope) as Record<string, unknown>;
    const result = await raceSignal(
      tools.callTool(slug, step.tool, args, trace ? { signal, trace } : { signal }),
      signal,
    );
    const text = toolResultText(result);
    if (result.isError) return done(result, `failed: ${text || 'the tool reported an error'}`);
    scope.steps[step.id] = { result, text };
    return done(result, null);
  } catch (error) {
    if (timeout.aborted) return done(null, `timed out after ${timeoutMs} ms`);
    if (outer?.aborted) return done(null, 'was cancelled');
    return done(null, `failed: ${toErrorInfo(error).message}`);
  }
}
