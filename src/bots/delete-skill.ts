/**
 * Removing a skill (SPEC B3).
 * @module
 */
import { BotItemNotFoundError } from '../errors.js';
import { deleteSkillRow } from '../storage/bot-skill-repo.js';
import type { Db } from '../storage/create-db.js';
import { requireBotRow } from './get-bot.js';

/** Delete skill `name` of bot `slug`; throws BotItemNotFoundError when there is none. */
export async function deleteSkill({ db }: { db: Db }, slug: string, name: string): Promise<void> {
  const bot = await requireBotRow(db, slug);
  if (!(await deleteSkillRow(db, bot.id, name))) throw new BotItemNotFoundError('skill', slug, name);
}
