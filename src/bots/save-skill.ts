/**
 * Creating or replacing a skill (SPEC B3).
 * @module
 */
import { upsertSkill } from '../storage/bot-skill-repo.js';
import type { Db } from '../storage/create-db.js';
import { requireBotRow } from './get-bot.js';
import { parseInput } from './parse-input.js';
import { SaveSkillInputSchema, type Skill, toSkill } from './skill-schemas.js';

/** Save skill `input.name` of bot `slug`; throws BotInputError for a template naming an undeclared argument. */
export async function saveSkill(
  { db }: { db: Db },
  slug: string,
  input: unknown,
): Promise<{ skill: Skill; created: boolean }> {
  const bot = await requireBotRow(db, slug);
  const skill = parseInput(SaveSkillInputSchema, input, 'skill');
  const { row, created } = await upsertSkill(db, bot.id, { ...skill, description: skill.description ?? '' });
  return { skill: toSkill(row), created };
}
