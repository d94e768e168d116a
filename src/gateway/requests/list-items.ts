/**
 * `tools/list`, `resources/list`, `resources/templates/list`, `prompts/list` (G2, G5, X4,
 * X7): answered from the caller's view, in one page, sanitized, audited by hash. A
 * session's first list waits (bounded) until the servers of its view have connected. Tools
 * and prompts are followed by the bot tools and skill prompts the session is served (G8),
 * resources and templates by the bots' activity resources (issue 18). In search mode
 * (issue 24) the tools are the meta-tools and the tools marked `alwaysLoad`.
 * @module
 */
import type { Prompt, Resource, ResourceTemplate, Tool } from '@modelcontextprotocol/sdk/types.js';
import { listBotItems, listBotResources } from '../bots/index.js';
import type { SessionContext } from '../session/index.js';
import { auditRow } from '../session/index.js';
import type { ServedView } from '../views/index.js';
import type { CallPath } from './call-path.js';
import { searchModeOf } from './search-mode.js';
import { withBotItems } from './with-bot-items.js';

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
  const all = (
    kind === 'tools' || kind === 'prompts'
      ? withBotItems(path, own, await listBotItems(path, session, served, kind))
      : withBotItems(path, own, await listBotResources(path, session, kind))
  ) as Lists[K];
  const items =
    kind === 'tools' ? ((searchModeOf(path, session, served, all as Tool[])?.listing ?? all) as Lists[K]) : all;
  path.audit?.commit(auditRow('server', session, null, { eventType: AUDITED[kind], output: items }));
  return items;
}
