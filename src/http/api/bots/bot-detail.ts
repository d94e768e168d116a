/**
 * A bot as the API shows it (SPEC B1, B2): its profile from the registry and its view from
 * the config file, joined by slug; a bot found in one place only is shown with a warning
 * that says what it lacks, never dropped.
 * @module
 */

import type { Bot } from '../../../bots/bot-schemas.js';
import type { BotSource } from '../../../bots/reconcile-bots.js';
import type { AppConfig, BotConfig } from '../../../config/schema.js';
import { UnknownBotError } from '../../../errors.js';
import { effectiveServers } from '../../../gateway/views/index.js';
import { botSamplingUsed } from '../../../storage/bot-sampling-usage-repo.js';
import type { Db } from '../../../storage/create-db.js';

/** What the API answers for one bot. */
export type BotDetail = {
  slug: string;
  source: BotSource;
  profile: Bot | null;
  view: Pick<BotConfig, 'additionalServers' | 'removedServers' | 'toolPermissions'> | null;
  servers: string[];
  samplingUsedTokens: number;
  warning: string | null;
};

/** Why a bot found in one place only is incomplete. */
export function sourceWarning(slug: string, source: BotSource): string | null {
  if (source === 'database')
    return `bot "${slug}" has no view in the config file: it sees the default servers (every server no bot adds as opt-in)`;
  if (source === 'config')
    return `bot "${slug}" is in the config file but not in the registry: it has a view but no profile, provider, memories, skills or chat; create it with POST /api/bots or bnity bot create`;
  return null;
}

/** The view of `slug` in `config`, own properties only ("constructor" is not a bot). */
export function configuredView(config: AppConfig, slug: string): BotConfig | null {
  return Object.hasOwn(config.bots, slug) ? (config.bots[slug] ?? null) : null;
}

/** Join `profile` (null: not in the registry) and the config's view of `slug`; UnknownBotError when in neither. */
export async function botDetail(db: Db, config: AppConfig, slug: string, profile: Bot | null): Promise<BotDetail> {
  const used = profile ? await botSamplingUsed(db, profile.id) : 0;
  return joinBot(config, slug, profile, used);
}

/** {@link botDetail} with the sampling spend already known (listings read it for every bot at once). */
export function joinBot(config: AppConfig, slug: string, profile: Bot | null, samplingUsedTokens: number): BotDetail {
  const view = configuredView(config, slug);
  if (!profile && !view) throw new UnknownBotError(slug);
  const source: BotSource = profile && view ? 'both' : profile ? 'database' : 'config';
  return {
    slug,
    source,
    profile,
    view: view && {
      additionalServers: view.additionalServers,
      removedServers: view.removedServers,
      toolPermissions: view.toolPermissions,
    },
    servers: effectiveServers(config, { kind: 'bot', slug }),
    samplingUsedTokens,
    warning: sourceWarning(slug, source),
  };
}
