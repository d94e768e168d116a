/**
 * `tools/list`, `resources/list`, `resources/templates/list`, `prompts/list` (G2, G5, X4,
 * X7): answered from the caller's view, in one page, sanitized, audited by hash. A
 * session's first list waits (bounded) until the servers of its view have connected. Tools
 * and prompts are followed by the bot tools and skill prompts the session is served (G8).
 * @module
 */
import type { Prompt, Resource, ResourceTemplate, Tool } from '@modelcontextprotocol/sdk/types.js';
import { auditRow } from './audit-request.js';
import { listBotItems } from './bot-items.js';
import type { CallPath } from './call-path.js';
import type { SessionContext } from './session-context.js';
import type { ServedView } from './view-cache.js';

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
    kind === 'tools' || kind === 'prompts' ? [...own, ...(await listBotItems(path, session, served, kind))] : own
  ) as Lists[K];
  path.audit?.record(auditRow('server', session, null, { eventType: AUDITED[kind], output: items }));
  return items;
}
