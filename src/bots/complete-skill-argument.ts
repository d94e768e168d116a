/**
 * Completion of a skill's argument values (SPEC B3; `completion/complete` on a prompt).
 * @module
 */
import { BotInputError } from '../errors.js';
import type { Db } from '../storage/create-db.js';
import { getSkill } from './get-skill.js';
import type { Skill } from './skill-schemas.js';

/** MCP caps a completion at 100 values. */
const MAX_VALUES = 100;

/** A completion as MCP returns it. */
export type Completion = { values: string[]; total: number; hasMore: boolean };

/** Declared values of `argument` that start with `prefix` (case-insensitive); none when it declares none. */
export function completeArgument(skill: Skill, argument: string, prefix: string): Completion {
  const declared = skill.arguments.find((a) => a.name === argument);
  if (!declared) throw new BotInputError(`skill "${skill.name}" has no argument "${argument}"`);
  const wanted = prefix.toLowerCase();
  const matches = (declared.values ?? []).filter((v) => v.toLowerCase().startsWith(wanted));
  return { values: matches.slice(0, MAX_VALUES), total: matches.length, hasMore: matches.length > MAX_VALUES };
}

/** Completions of `argument` of skill `name` of bot `slug`. */
export async function completeSkillArgument(
  deps: { db: Db },
  slug: string,
  name: string,
  argument: string,
  prefix: string,
): Promise<Completion> {
  return completeArgument(await getSkill(deps, slug, name), argument, prefix);
}
