/**
 * Creating or replacing a workflow (SPEC B3).
 * @module
 */
import { upsertWorkflow } from '../storage/bot-workflow-repo.js';
import type { Db } from '../storage/create-db.js';
import { requireBotRow } from './get-bot.js';
import { parseInput } from './parse-input.js';
import { SaveWorkflowInputSchema, toWorkflow, type Workflow } from './workflow-schemas.js';

/** Save workflow `input.name` of bot `slug`; throws BotInputError naming the step of a bad reference. */
export async function saveWorkflow(
  { db }: { db: Db },
  slug: string,
  input: unknown,
): Promise<{ workflow: Workflow; created: boolean }> {
  const bot = await requireBotRow(db, slug);
  const workflow = parseInput(SaveWorkflowInputSchema, input, 'workflow');
  const { row, created } = await upsertWorkflow(db, bot.id, {
    ...workflow,
    description: workflow.description ?? '',
  });
  return { workflow: toWorkflow(row), created };
}
