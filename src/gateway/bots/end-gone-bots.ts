/**
 * The sessions of a bot that went (SPEC X1, G3). A bot deleted from the registry takes its
 * tokens with it (`deleteBot` revokes them): the sessions its tokens opened end at once. A bot
 * that is then in neither the registry nor the config file has no view at all: every session
 * of its view ends too, rather than go on with the default view a registry-only bot gets
 * (ADR 012) — wider than the view its config entry gave it. Checked when a bot is deleted and
 * when a config apply may have taken a bot's entry away.
 * @module
 */
import type { Logger } from 'pino';
import type { EventBus } from '../../bus/create-event-bus.js';
import { RequestEndedError } from '../../errors.js';
import type { HubEvent } from '../../events/hub-event.js';
import type { CallPath } from '../requests/index.js';
import type { AgentSession } from '../session/index.js';
import type { SessionRegistry } from '../session/session-registry.js';

/** Ends `chosen` sessions' requests with `reason`, then the sessions; resolves to how many. */
export type EndSessions = (chosen: AgentSession[], reason: () => Error) => Promise<number>;

/** Watch for bots that went; `deleted(slug)` is told of a delete from the registry. */
export function endGoneBots({
  bus,
  sessions,
  config,
  botExists,
  end,
  log,
}: {
  bus: EventBus<HubEvent>;
  sessions: Pick<SessionRegistry, 'all'>;
  config: CallPath['config'];
  botExists: ((slug: string) => Promise<boolean>) | undefined;
  end: EndSessions;
  log: Logger;
}): { deleted(slug: string): void; stop(): void } {
  const agents = (slug: string) => sessions.all().filter((s) => s.bot === slug && !s.ownBot);
  const check = async (slug: string, tokensRevoked: boolean) => {
    const gone = !Object.hasOwn(config().bots, slug) && !(await botExists?.(slug));
    const chosen = agents(slug).filter((s) => gone || (tokensRevoked && s.botAccess?.caller.kind === 'bot'));
    if (chosen.length === 0) return;
    const ended = await end(chosen, () => new RequestEndedError(gone ? 'bot deleted' : 'token revoked'));
    log.info({ bot: slug, sessions: ended }, 'sessions of a deleted bot ended');
  };
  const run = (slug: string, tokensRevoked: boolean) =>
    void check(slug, tokensRevoked).catch((error: unknown) =>
      log.warn({ err: error, bot: slug }, 'sessions of a deleted bot not ended'),
    );
  const stop = bus.subscribeTo(['config_applied'], () => {
    const bots = config().bots;
    const slugs = new Set(
      sessions.all().flatMap((s) => (s.bot !== null && !Object.hasOwn(bots, s.bot) ? [s.bot] : [])),
    );
    for (const slug of slugs) run(slug, false);
  });
  return { deleted: (slug) => run(slug, true), stop };
}
