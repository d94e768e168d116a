/**
 * A bot lives in two places (SPEC B1, B2): its profile in the database, its MCP view in the
 * config file (`bots.{slug}`). A listing joins them, and a bot present in only one place is
 * reported as such, never silently dropped.
 * @module
 */
import type { BotConfig } from '../config/schema.js';
import type { Bot } from './bot-schemas.js';

/** Where a bot was found. */
export type BotSource = 'both' | 'database' | 'config';

/** One bot of the joined listing: `bot` is null for config-only bots, `view` for database-only ones. */
export type BotListing = { slug: string; source: BotSource; bot: Bot | null; view: BotConfig | null };

/** Join the registry and the config's `bots` section by slug, sorted by slug (pure). */
export function reconcileBots(registry: readonly Bot[], configured: Readonly<Record<string, BotConfig>>): BotListing[] {
  const bySlug = new Map<string, BotListing>();
  for (const bot of registry) bySlug.set(bot.slug, { slug: bot.slug, source: 'database', bot, view: null });
  for (const [slug, view] of Object.entries(configured)) {
    const found = bySlug.get(slug);
    bySlug.set(slug, found ? { ...found, source: 'both', view } : { slug, source: 'config', bot: null, view });
  }
  return [...bySlug.values()].sort((a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0));
}
