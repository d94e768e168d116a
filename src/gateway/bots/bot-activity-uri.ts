/**
 * The URI of a bot's activity resource (issue 18, ADR 023): `boternity://bots/{slug}/activity`.
 * The gateway serves it itself, beside the view's resources, to the sessions that reach the
 * bot; it never routes to an upstream.
 * @module
 */

/** The resource template every session with bot access is offered. */
export const BOT_ACTIVITY_TEMPLATE = 'boternity://bots/{slug}/activity';

const PREFIX = 'boternity://bots/';
const SUFFIX = '/activity';

/** The activity URI of bot `slug`. */
export const botActivityUri = (slug: string): string => `${PREFIX}${slug}${SUFFIX}`;

/** The slug an activity URI names (whether such a bot is in reach is the listing's to say); null for any other URI. */
export function activityBotOf(uri: string): string | null {
  if (!uri.startsWith(PREFIX) || !uri.endsWith(SUFFIX)) return null;
  const slug = uri.slice(PREFIX.length, -SUFFIX.length);
  return slug.length > 0 && !slug.includes('/') ? slug : null;
}
