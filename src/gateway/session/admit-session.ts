/**
 * The caps on agent sessions (SPEC X8): per owner (a token; the admin counts as one) and
 * on the whole service. A new session over its owner's cap, or over the total, first
 * closes that owner's oldest idle session (no request in flight, the longest quiet); with
 * none to close it is refused. One token opening sessions without end so only churns its
 * own, and cannot take the service's memory or other tokens' sessions.
 * @module
 */
import type { Logger } from 'pino';
import type { AppConfig } from '../../config/schema.js';
import { SessionLimitError } from '../../errors.js';
import { type AgentSession, lastActiveAt } from './agent-session.js';
import type { SessionRegistry } from './session-registry.js';

/** What admission needs. */
export type AdmitDeps = {
  sessions: Pick<SessionRegistry, 'all'>;
  limits: () => Pick<AppConfig['gateway'], 'maxSessions' | 'maxSessionsPerToken'>;
  log: Logger;
  now?: () => number;
};

/**
 * Make room for one more session of `owner`: close its oldest idle session when a cap is
 * reached, or throw {@link SessionLimitError}. Sessions with no owner (stdio, in-process)
 * are neither capped nor counted.
 */
export function admitSession({ sessions, limits, log, now = Date.now }: AdmitDeps, owner: string | null): void {
  if (owner === null) return;
  const { maxSessions, maxSessionsPerToken } = limits();
  const capped = sessions.all().filter((s) => s.owner !== null && s.idles);
  const mine = capped.filter((s) => s.owner === owner);
  const which = mine.length >= maxSessionsPerToken ? 'per_token' : capped.length >= maxSessions ? 'total' : null;
  if (which === null) return;
  const victim = oldestIdle(mine, now());
  if (!victim) throw new SessionLimitError(which, which === 'per_token' ? maxSessionsPerToken : maxSessions);
  log.info({ session: victim.id, owner, cap: which }, 'closed the oldest idle session of this token to make room');
  // Its transport closes at once, and with it its entry in the registry.
  void victim.close();
}

/** The session of `candidates` quiet the longest with no request in flight, or null. */
function oldestIdle(candidates: readonly AgentSession[], now: number): AgentSession | null {
  let found: AgentSession | null = null;
  let foundAt = 0;
  for (const session of candidates) {
    if (session.requests.size > 0) continue;
    const at = lastActiveAt(session, now);
    if (!found || at < foundAt) {
      found = session;
      foundAt = at;
    }
  }
  return found;
}
