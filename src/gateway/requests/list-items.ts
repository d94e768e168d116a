/**
 * `tools/list`, `resources/list`, `resources/templates/list`, `prompts/list` (G2, G5, X4,
 * X7): answered from the caller's view, in one page, sanitized, audited by hash. A
 * session's first list waits (bounded) until the servers of its view have connected. Tools
 * and prompts are followed by the bot tools and skill prompts the session is served (G8),
 * resources and templates by the bots' activity resources (issue 18).
 * @module
 */
import type { Prompt, Resource, ResourceTemplate, Tool } from '@modelcontextprotocol/sdk/types.js';
import { listBotItems, listBotResources } from '../bots/index.js';
import type { SessionContext } from '../session/index.js';
import { auditRow } from '../session/index.js';
import type { ServedView } from '../views/index.js';
import type { CallPath } from './call-path.js';

/** The kinds of list, with the items each lists. */
type Lists = { tools: Tool[]; resources: Resource[]; resourceTemplates: ResourceTemplate[]; prompts: Prompt[] };

const AUDITED: Record<keyof Lists, string> = {
  tools: 'tools_list',
  resources: 'resources_list',
  resourceTemplates: 'resource_templates_list',
  prompts: 'prompts_list',
};

/** The items of `kind` in the caller's view, as the agent sees them. */
export async function listItems<K extends keyof Lists>(
  path: CallPath,
  ctx: SessionContext,
  kind: K,
): Promise<Lists[K]> {
  const session = ctx.session;
  // Every list of the session waits on the same first wait; once settled nothing waits.
  session.firstList ??= path.serversSettled(session);
  await session.firstList;
  const served: ServedView = path.views.view(session.spec);
  const own = served[kind]() as Lists[K];
  const items = (
    kind === 'tools' || kind === 'prompts'
      ? withBotItems(path, own, await listBotItems(path, session, served, kind))
      : withBotItems(path, own, await listBotResources(path, session, kind))
  ) as Lists[K];
  path.audit?.commit(auditRow('server', session, null, { eventType: AUDITED[kind], output: items }));
  return items;
}

/**
 * The view's listing followed by the bot items: the array made last time when neither
 * changed. The bots give the same array while no bot changed, so the text comparison runs
 * only after a change (or when some bot names were left out, a new array each time).
 */
function withBotItems(path: CallPath, own: readonly unknown[], bot: readonly unknown[]): unknown[] {
  if (bot.length === 0) return own as unknown[];
  const last = path.listings.get(own);
  if (last?.bot === bot) return last.items;
  const key = JSON.stringify(bot);
  if (last?.key === key) {
    path.listings.set(own, { ...last, bot });
    return last.items;
  }
  const items = [...own, ...bot];
  path.listings.set(own, { bot, key, items });
  return items;
}
