/**
 * Reading one skill (SPEC B3).
 * @module
 */
import { BotItemNotFoundError } from '../errors.js';
import { findSkillRow } from '../storage/bot-skill-repo.js';
import type { Db } from '../storage/create-db.js';
import { requireBotRow } from './get-bot.js';
import { type Skill, toSkill } from './skill-schemas.js';

/** Skill `name` of bot `slug`; throws UnknownBotError or BotItemNotFoundError. */
export async function getSkill({ db }: { db: Db }, slug: string, name: string): Promise<Skill> {
  const bot = await requireBotRow(db, slug);
  const row = await findSkillRow(db, bot.id, name);
  if (!row) throw new BotItemNotFoundError('skill', slug, name);
  return toSkill(row);
}
