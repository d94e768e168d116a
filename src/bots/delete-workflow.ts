/**
 * Removing a workflow (SPEC B3).
 * @module
 */
import { BotItemNotFoundError } from '../errors.js';
import { deleteWorkflowRow } from '../storage/bot-workflow-repo.js';
import type { Db } from '../storage/create-db.js';
import { requireBotRow } from './get-bot.js';

/** Delete workflow `name` of bot `slug`; throws BotItemNotFoundError when there is none. */
export async function deleteWorkflow({ db }: { db: Db }, slug: string, name: string): Promise<void> {
  const bot = await requireBotRow(db, slug);
  if (!(await deleteWorkflowRow(db, bot.id, name))) throw new BotItemNotFoundError('workflow', slug, name);
}
