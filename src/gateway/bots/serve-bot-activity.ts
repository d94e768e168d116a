/**
 * `boternity://bots/{slug}/activity` on the call path (issue 18, ADR 023): a session with
 * bot access has these URIs answered here, never by an upstream. Reading or subscribing
 * needs the URI in the session's own listing (a registry bot it reaches): any other bot's
 * answers as a resource outside the view does, in one line. A subscription (or a listen
 * stream's filter, through the same subscribe) is recorded on the session alone.
 * @module
 */
import type {
  ReadResourceRequest,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
} from '@modelcontextprotocol/sdk/types.js';
import { NotInViewError } from '../../errors.js';
import type { Outcome } from '../relay/index.js';
import type { BotSurface, CallPath } from '../requests/index.js';
import { finishRequest } from '../requests/index.js';
import type { AgentSession, SessionContext } from '../session/index.js';
import { ACTIVITY_OWNER, type BotActivity } from './bot-activity.js';
import { activityBotOf, BOT_ACTIVITY_TEMPLATE, botActivityUri } from './bot-activity-uri.js';

type Served = { readonly bots: BotSurface; readonly activity: BotActivity; readonly slug: string };

const DESCRIPTION =
  "The bot's recent activity (created, updated, chat messages, workflow runs) as JSON, newest last; " +
  'subscribe to it (or name it in a subscriptions/listen filter) to be told when it changes.';

/** The one template, the same array every time (the listing built with it is then reused). */
const TEMPLATES: readonly ResourceTemplate[] = [
  {
    uriTemplate: BOT_ACTIVITY_TEMPLATE,
    name: 'bot_activity',
    title: "A bot's activity",
    description: DESCRIPTION,
    mimeType: 'application/json',
  },
];

/** The resources made from each roster array (the same while no bot changes). */
const made = new WeakMap<readonly string[], readonly Resource[]>();

/** The activity resources of `slugs`: slugs only, a bot's name and description are API callers' text. */
function resourcesOf(slugs: readonly string[]): readonly Resource[] {
  const found = made.get(slugs);
  if (found) return found;
  const resources = slugs.map((slug) => ({
    uri: botActivityUri(slug),
    name: `${slug}__activity`,
    title: `Activity of bot ${slug}`,
    description: DESCRIPTION,
    mimeType: 'application/json',
  }));
  made.set(slugs, resources);
  return resources;
}

/** What serves `uri` for `session` when it is an activity URI it may ask about; null: not ours. */
export function activityOf(path: CallPath, session: AgentSession, uri: string): Served | null {
  if (!path.bots || !path.activity || !session.botAccess) return null;
  const slug = activityBotOf(uri);
  return slug === null ? null : { bots: path.bots, activity: path.activity, slug };
}

/** Whether `session` lists `uri` now (a bot it reaches, in the registry). */
async function listed(served: Served, session: AgentSession, uri: string): Promise<boolean> {
  if (!session.botAccess) return false;
  const slugs = await served.bots.roster.slugs(session.botAccess).catch(() => [] as string[]);
  return slugs.includes(served.slug) && botActivityUri(served.slug) === uri;
}

/** Answer `resources/read` of an activity URI, audited like any read. */
export async function readBotActivity(
  path: CallPath,
  ctx: SessionContext,
  served: Served,
  params: ReadResourceRequest['params'],
): Promise<ReadResourceResult> {
  const started = performance.now();
  const outcome: Outcome<ReadResourceResult> = (await listed(served, ctx.session, params.uri))
    ? { ok: true, value: served.activity.read(served.slug) }
    : { ok: false, error: new NotInViewError('resource', params.uri) };
  const fields = { eventType: 'resource_read', serverName: null, toolName: params.uri, input: params };
  return finishRequest(path, ctx, started, fields, outcome);
}

/** Hold an activity URI for the session; throws NotInViewError for one it does not list. */
export async function subscribeBotActivity(
  path: CallPath,
  session: AgentSession,
  served: Served,
  uri: string,
): Promise<void> {
  if (!(await listed(served, session, uri))) throw new NotInViewError('resource', uri);
  path.sessions.subscribe(session, uri, { server: ACTIVITY_OWNER, uri }, false);
}

/** The activity resources (or the template) `session` is served beside its view's; none without bot access. */
export async function listBotResources(
  path: CallPath,
  session: AgentSession,
  kind: 'resources' | 'resourceTemplates',
): Promise<readonly Resource[] | readonly ResourceTemplate[]> {
  const access = session.botAccess;
  if (!access || !path.bots || !path.activity) return [];
  return kind === 'resourceTemplates' ? TEMPLATES : resourcesOf(await path.bots.roster.slugs(access));
}
