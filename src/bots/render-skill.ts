/**
 * Rendering a skill with its arguments (SPEC B3; the `prompts/get` of a skill).
 * @module
 */
import { BotInputError } from '../errors.js';
import type { Db } from '../storage/create-db.js';
import { getSkill } from './get-skill.js';
import { renderString } from './resolve-template.js';
import type { Skill } from './skill-schemas.js';

/** The template with each `{{argument}}` replaced; an optional argument left out reads as empty. */
export function renderSkillText(skill: Skill, args: Readonly<Record<string, string>>): string {
  const declared = skill.arguments.map((a) => a.name);
  const unknown = Object.keys(args).filter((k) => !declared.includes(k));
  if (unknown.length > 0)
    throw new BotInputError(
      `skill "${skill.name}" has no argument ${unknown.map((k) => `"${k}"`).join(', ')}; it takes: ${declared.join(', ') || 'none'}`,
    );
  const missing = skill.arguments.filter((a) => a.required && !args[a.name]).map((a) => a.name);
  if (missing.length > 0)
    throw new BotInputError(`skill "${skill.name}" needs argument ${missing.map((k) => `"${k}"`).join(', ')}`);
  const scope = Object.fromEntries(skill.arguments.map((a) => [a.name, args[a.name] ?? '']));
  return String(renderString(skill.template, scope));
}

/** Skill `name` of bot `slug` rendered with `args`. */
export async function renderSkill(
  deps: { db: Db },
  slug: string,
  name: string,
  args: Readonly<Record<string, string>>,
): Promise<{ skill: Skill; text: string }> {
  const skill = await getSkill(deps, slug, name);
  return { skill, text: renderSkillText(skill, args) };
}
