/**
 * Running one bot tool (SPEC G8): the name is resolved within the caller's scope (a tool
 * outside it, or `create_bot`/`delete_bot` for a bot token, is refused with an error), then
 * the verb runs; what goes wrong there comes back as an `isError` result the caller reads.
 * @module
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ForbiddenError, HubError, UnknownBotToolError } from '../errors.js';
import { findBotBySlug } from '../storage/bot-repo.js';
import { addMemory } from './add-memory.js';
import { type BotScope, botsInScope, reaches, scopeOf } from './bot-access.js';
import type { BotDeps } from './bot-deps.js';
import { BOT_SLUG } from './bot-schemas.js';
import { NoArgsSchema, SlugArgSchema, TriggerWorkflowInputSchema } from './bot-tool-list.js';
import { botToolName, PER_BOT_VERBS, type PerBotVerb, SHARED_TOOLS, type SharedTool } from './bot-tool-names.js';
import { chatAsTool } from './chat-as-tool.js';
import { createBot } from './create-bot.js';
import { deleteBot } from './delete-bot.js';
import { getBot } from './get-bot.js';
import { listBots } from './list-bots.js';
import { listMemories } from './list-memories.js';
import { listSkills } from './list-skills.js';
import { parseInput } from './parse-input.js';
import type { BotToolContext } from './ports.js';
import { runWorkflow } from './run-workflow.js';
import { RunWorkflowInputSchema } from './workflow-schemas.js';

type Target = { kind: SharedTool; slug?: undefined } | { kind: PerBotVerb; slug: string };

const isShared = (name: string): name is SharedTool => (SHARED_TOOLS as readonly string[]).includes(name);

/** The tool `name` names for `scope`; throws when there is none here or it is not allowed. */
async function resolveTool(deps: Pick<BotDeps, 'db'>, name: string, scope: BotScope): Promise<Target> {
  if (isShared(name)) {
    if ((name === 'create_bot' || name === 'delete_bot') && !scope.manage)
      throw new ForbiddenError(`${name} is not available ${scope.slug === null ? 'here' : `to bot "${scope.slug}"`}`);
    // Within one bot's scope the registry is not listed: only that bot is in reach.
    if (name === 'list_bots' && scope.slug !== null) throw new UnknownBotToolError('tool', name);
    return { kind: name };
  }
  for (const verb of PER_BOT_VERBS) {
    const slug = name.slice(verb.length + 2);
    if (name.startsWith(`${verb}__`) && BOT_SLUG.test(slug) && botToolName(verb, slug) === name) {
      // Not listed (another bot's, or no such bot): the same answer as any unknown tool.
      if (!reaches(scope, slug) || !(await findBotBySlug(deps.db, slug))) break;
      return { kind: verb, slug };
    }
  }
  // A name shortened with a hash (a long slug): find the bot it was made from.
  for (const bot of await botsInScope(deps, scope))
    for (const verb of PER_BOT_VERBS) if (botToolName(verb, bot.slug) === name) return { kind: verb, slug: bot.slug };
  throw new UnknownBotToolError('tool', name);
}

/**
 * `create_bot` from an agent's token may not name a keystore entry as the provider's key: the
 * bot's chat would send that secret (an upstream's credential, say) as the bearer token to the
 * base URL the agent chose (SPEC C6: secrets never leave). Only the admin, who manages the
 * keystore, sets `provider.credentialKey` (here, `bnity bot`, the API or the UI).
 */
function refuseForeignCredential(args: unknown, { caller }: BotToolContext): void {
  if (caller.kind === 'admin' || typeof args !== 'object' || args === null) return;
  const provider = (args as Record<string, unknown>).provider;
  if (typeof provider !== 'object' || provider === null) return;
  if ((provider as Record<string, unknown>).credentialKey !== undefined)
    throw new ForbiddenError(
      'provider.credentialKey names a keystore secret: only the admin token may set it; create the bot without it and have an operator set it (bnity bot update, the API or the web UI)',
    );
}

/** A JSON answer: readable text and the same value as structured content. */
const json = (value: Record<string, unknown>): CallToolResult => ({
  content: [{ type: 'text', text: JSON.stringify(value, null, 2) }],
  structuredContent: value,
});

async function run(deps: BotDeps, target: Target, args: unknown, context: BotToolContext, scope: BotScope) {
  switch (target.kind) {
    case 'list_bots':
      return json({ bots: await listBots(deps, args) });
    case 'get_bot':
      if (scope.slug !== null) parseInput(NoArgsSchema, args, 'arguments');
      return json({ bot: await getBot(deps, scope.slug ?? parseInput(SlugArgSchema, args, 'arguments').slug) });
    case 'create_bot':
      refuseForeignCredential(args, context);
      return json({ bot: await createBot(deps, args) });
    case 'delete_bot': {
      const { slug } = parseInput(SlugArgSchema, args, 'arguments');
      await deleteBot(deps, slug);
      return json({ deleted: slug });
    }
    case 'trigger_workflow': {
      // Within one bot's scope the bot is fixed: a `bot` argument is refused, not obeyed.
      const { bot, ...request } =
        scope.slug === null
          ? parseInput(TriggerWorkflowInputSchema, args, 'arguments')
          : { ...parseInput(RunWorkflowInputSchema, args, 'arguments'), bot: scope.slug };
      const result = await runWorkflow(deps, bot, request, { signal: context.signal });
      return { ...json(result), ...(result.status === 'failed' ? { isError: true } : {}) };
    }
    case 'chat':
      return chatAsTool(deps, target.slug, args, context);
    case 'get_memories':
      return json({ memories: await listMemories(deps, target.slug, args ?? {}) });
    case 'add_memory':
      return json({ memory: await addMemory(deps, target.slug, args) });
    case 'list_skills': {
      parseInput(NoArgsSchema, args, 'arguments');
      const skills = await listSkills(deps, target.slug);
      return json({
        skills: skills.map(({ name, description, arguments: a }) => ({ name, description, arguments: a })),
      });
    }
  }
}

/** Call bot tool `name` for `context`'s caller. */
export async function callBotTool(
  deps: BotDeps,
  name: string,
  args: Record<string, unknown>,
  context: BotToolContext,
): Promise<CallToolResult> {
  const scope = scopeOf(context);
  const target = await resolveTool(deps, name, scope);
  try {
    return await run(deps, target, args, context, scope);
  } catch (error) {
    if (!(error instanceof HubError)) {
      deps.log.error({ err: error, tool: name }, 'bot tool failed');
      return { content: [{ type: 'text', text: `${name} failed: internal error` }], isError: true };
    }
    return { content: [{ type: 'text', text: error.message }], isError: true };
  }
}
