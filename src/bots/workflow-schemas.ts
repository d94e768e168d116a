/**
 * The shapes of workflows (SPEC B3): steps call tools of the bot's view with arguments that
 * may refer to the run's `input` and to earlier steps (`{{steps.<id>.result…}}` or
 * `{{steps.<id>.text}}`). Every reference is checked when the workflow is saved.
 * @module
 */
import { z } from 'zod';
import { TemplateError } from '../errors.js';
import type { WorkflowRow } from '../storage/bot-workflow-repo.js';
import { ItemNameSchema } from './item-name.js';
import { type Reference, referencesIn } from './parse-template.js';

/** Most steps a workflow may have. */
export const MAX_WORKFLOW_STEPS = 50;

/** What a step exposes to later ones. */
const STEP_FIELDS = ['result', 'text'];

/** One step: a tool of the bot's view (its public name) and templated arguments. */
export const WorkflowStepSchema = z
  .object({
    id: z.string().regex(/^[A-Za-z_][A-Za-z0-9_-]{0,63}$/, 'step ids are a letter or _ then letters, digits, _ or -'),
    tool: z.string().min(1).max(128),
    arguments: z.record(z.string(), z.unknown()).default({}),
    timeoutMs: z.number().int().positive().max(3_600_000).optional(),
  })
  .strict();
export type WorkflowStep = z.infer<typeof WorkflowStepSchema>;

/** Why `ref` in step `index` cannot be resolved from what runs before it, or null when it can. */
function referenceProblem(ref: Reference, earlier: ReadonlySet<string>, all: ReadonlySet<string>): string | null {
  const [root, step, field] = ref.path;
  if (root === 'input') return null;
  if (root !== 'steps') return `{{${ref.source}}}: a reference starts with input or steps, not "${String(root)}"`;
  if (typeof step !== 'string') return `{{${ref.source}}}: name a step, as in steps.<id>.result`;
  if (!all.has(step)) return `{{${ref.source}}} refers to step "${step}", which does not exist`;
  if (!earlier.has(step)) return `{{${ref.source}}} refers to step "${step}", which has not run yet at this point`;
  if (field !== undefined && !STEP_FIELDS.includes(String(field)))
    return `{{${ref.source}}}: a step has ${STEP_FIELDS.join(' and ')}, not "${String(field)}"`;
  return null;
}

/** Create or replace a workflow. */
export const SaveWorkflowInputSchema = z
  .object({
    name: ItemNameSchema,
    description: z.string().max(2_000).optional(),
    steps: z.array(WorkflowStepSchema).min(1).max(MAX_WORKFLOW_STEPS),
  })
  .strict()
  .superRefine((workflow, ctx) => {
    const all = new Set(workflow.steps.map((s) => s.id));
    const earlier = new Set<string>();
    workflow.steps.forEach((step, i) => {
      if (earlier.has(step.id))
        ctx.addIssue({ code: 'custom', path: ['steps', i, 'id'], message: `step id "${step.id}" is used twice` });
      try {
        for (const { at, ref } of referencesIn(step.arguments)) {
          const problem = referenceProblem(ref, earlier, all);
          if (problem) ctx.addIssue({ code: 'custom', path: ['steps', i, 'arguments', ...at], message: problem });
        }
      } catch (error) {
        if (!(error instanceof TemplateError)) throw error;
        ctx.addIssue({ code: 'custom', path: ['steps', i, 'arguments'], message: error.message });
      }
      earlier.add(step.id);
    });
  });

/** Run a workflow: `input` is what `{{input…}}` reads (any JSON). */
export const RunWorkflowInputSchema = z.object({ name: ItemNameSchema, input: z.unknown().optional() }).strict();

/** A workflow as returned. */
export type Workflow = {
  name: string;
  description: string;
  steps: WorkflowStep[];
  createdAt: string;
  updatedAt: string;
};

/** The API shape of a workflow row. */
export function toWorkflow(row: WorkflowRow): Workflow {
  return {
    name: row.name,
    description: row.description,
    steps: row.steps.map((s) => ({ ...s, arguments: s.arguments ?? {} })),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
