/**
 * The bots' skills as MCP prompts (SPEC G8, B3): `{slug}__{skill}` on `/mcp` (every bot's,
 * or a bot token's own), `{skill}` on `/mcp/bots/{slug}`. Getting one renders it with its
 * arguments; completion offers the values a skill declares.
 * @module
 */
import type { Prompt } from '@modelcontextprotocol/sdk/types.js';
import { UnknownBotToolError } from '../errors.js';
import { sanitizeText } from '../guard/sanitize-text.js';
import { listAllSkillRows, listSkillRows } from '../storage/bot-skill-repo.js';
import { type BotScope, scopeKey, scopeOf } from './bot-access.js';
import type { BotDeps } from './bot-deps.js';
import { skillPromptName } from './bot-tool-names.js';
import { cachePerChange } from './cache-per-change.js';
import { completeArgument } from './complete-skill-argument.js';
import { getBot } from './get-bot.js';
import type { BotPrompts } from './ports.js';
import { renderSkillText } from './render-skill.js';
import { type Skill, toSkill } from './skill-schemas.js';

type Named = { name: string; slug: string; skill: Skill };

/** The skills in reach of `scope`, with the prompt name each has there. */
async function skillsInScope({ db }: Pick<BotDeps, 'db'>, scope: BotScope): Promise<Named[]> {
  const rows =
    scope.slug === null
      ? await listAllSkillRows(db)
      : await getBot({ db }, scope.slug).then(
          async (bot) => (await listSkillRows(db, bot.id)).map((skill) => ({ slug: bot.slug, skill })),
          () => [],
        );
  return rows.map(({ slug, skill }) => ({
    name: scope.prefixed ? skillPromptName(slug, skill.name) : skill.name,
    slug,
    skill: toSkill(skill),
  }));
}

const toPrompt = ({ name, skill }: Named): Prompt => ({
  name,
  title: skill.name,
  // Skills are written by API callers and read by other agents: sanitized like upstream text (X4).
  ...(skill.description ? { description: sanitizeText(skill.description, { kind: 'description' }).text } : {}),
  arguments: skill.arguments.map((a) => ({
    name: a.name,
    ...(a.description ? { description: sanitizeText(a.description, { kind: 'description' }).text } : {}),
    required: a.required ?? false,
  })),
});

/** Create the skill prompts of one service. */
export function createBotPrompts(deps: Pick<BotDeps, 'db' | 'changes'>): BotPrompts {
  const cached = cachePerChange<Prompt[]>(deps.changes);
  const find = async (name: string, scope: BotScope): Promise<Named> => {
    const found = (await skillsInScope(deps, scope)).find((s) => s.name === name);
    if (!found) throw new UnknownBotToolError('prompt', name);
    return found;
  };
  return {
    async list(access) {
      const scope = scopeOf(access);
      return cached(scopeKey(scope), async () => (await skillsInScope(deps, scope)).map(toPrompt));
    },
    async get(name, args, access) {
      const found = await find(name, scopeOf(access));
      const text = renderSkillText(found.skill, args);
      const { description } = toPrompt(found);
      return {
        ...(description ? { description } : {}),
        messages: [{ role: 'user', content: { type: 'text', text } }],
      };
    },
    async complete(name, argument, access) {
      const { skill } = await find(name, scopeOf(access));
      return completeArgument(skill, argument.name, argument.value);
    },
  };
}
