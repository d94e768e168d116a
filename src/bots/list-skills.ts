/**
 * A bot's skills (SPEC B3, G8 `list_skills__{slug}`).
 * @module
 */
import { listSkillRows } from '../storage/bot-skill-repo.js';
import type { Db } from '../storage/create-db.js';
import { requireBotRow } from './get-bot.js';
import { type Skill, toSkill } from './skill-schemas.js';

/** Bot `slug`'s skills, by name. */
export async function listSkills({ db }: { db: Db }, slug: string): Promise<Skill[]> {
  const bot = await requireBotRow(db, slug);
  return (await listSkillRows(db, bot.id)).map(toSkill);
}
