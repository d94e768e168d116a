/**
 * A bot's workflows (SPEC B3).
 * @module
 */
import { listWorkflowRows } from '../storage/bot-workflow-repo.js';
import type { Db } from '../storage/create-db.js';
import { requireBotRow } from './get-bot.js';
import { toWorkflow, type Workflow } from './workflow-schemas.js';

/** Bot `slug`'s workflows, by name. */
export async function listWorkflows({ db }: { db: Db }, slug: string): Promise<Workflow[]> {
  const bot = await requireBotRow(db, slug);
  return (await listWorkflowRows(db, bot.id)).map(toWorkflow);
}
