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

/** Sessions open on every replica (ADR 042): of one owner, and in all. */
export type FleetSessionCount = { count(owner: string): Promise<{ owner: number; total: number }> };

/** The capped sessions here: all of them, and those of `owner`. */
const cappedHere = (sessions: AdmitDeps['sessions'], owner: string) => {
  const capped = sessions.all().filter((s) => s.owner !== null && s.idles);
  return { capped, mine: capped.filter((s) => s.owner === owner) };
};

/**
 * Make room for one more session of `owner`: close its oldest idle session when a cap is
 * reached, or throw {@link SessionLimitError}. Sessions with no owner (stdio, in-process)
 * are neither capped nor counted.
 */
export function admitSession(deps: AdmitDeps, owner: string | null): void {
  if (owner === null) return;
  const { capped, mine } = cappedHere(deps.sessions, owner);
  makeRoom(deps, owner, mine, { owner: mine.length, total: capped.length });
}

/**
 * {@link admitSession} against the sessions of the whole fleet: the caps count every
 * replica's sessions; room is made by closing the owner's oldest idle session here (another
 * replica's are not reachable from here). When the fleet's count fails (the database does
 * not answer) the sessions here are counted alone.
 */
export async function admitFleetSession(
  deps: AdmitDeps & { fleet: FleetSessionCount },
  owner: string | null,
): Promise<void> {
  if (owner === null) return;
  const fleet = await deps.fleet.count(owner).catch(() => null);
  // Counted after the await: sessions opened here meanwhile are in the registry.
  const { capped, mine } = cappedHere(deps.sessions, owner);
  makeRoom(deps, owner, mine, {
    owner: Math.max(mine.length, fleet?.owner ?? 0),
    total: Math.max(capped.length, fleet?.total ?? 0),
  });
}

/** Close the oldest idle of `mine` when `counts` reach a cap; throw when none is idle. */
function makeRoom(
  { limits, log, now = Date.now }: AdmitDeps,
  owner: string,
  mine: readonly AgentSession[],
  counts: { owner: number; total: number },
): void {
  const { maxSessions, maxSessionsPerToken } = limits();
  const which = counts.owner >= maxSessionsPerToken ? 'per_token' : counts.total >= maxSessions ? 'total' : null;
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
