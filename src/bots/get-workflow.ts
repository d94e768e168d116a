/**
 * Reading one workflow (SPEC B3).
 * @module
 */
import { BotItemNotFoundError } from '../errors.js';
import { findWorkflowRow } from '../storage/bot-workflow-repo.js';
import type { Db } from '../storage/create-db.js';
import { requireBotRow } from './get-bot.js';
import { toWorkflow, type Workflow } from './workflow-schemas.js';

/** Workflow `name` of bot `slug`; throws UnknownBotError or BotItemNotFoundError. */
export async function getWorkflow({ db }: { db: Db }, slug: string, name: string): Promise<Workflow> {
  const bot = await requireBotRow(db, slug);
  const row = await findWorkflowRow(db, bot.id, name);
  if (!row) throw new BotItemNotFoundError('workflow', slug, name);
  return toWorkflow(row);
}
