/**
 * The idle sweep follows `gateway.sessionIdleMs` (SPEC X8): a session is closed about when
 * it expires, a timeout lowered by a config reload takes hold within seconds (not at the
 * next minute), and a session with a request in flight is not idle.
 */
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/parse-config.js';
import type { AppConfig } from '../../src/config/schema.js';
import type { AgentSession } from '../../src/gateway/session/agent-session.js';
import { sweepIdleSessions } from '../../src/gateway/sweep-idle-sessions.js';
import { waitFor } from '../support/wait-for.js';

type Fake = Pick<AgentSession, 'id' | 'idles' | 'lastActivity' | 'requests'>;

describe('sweepIdleSessions', () => {
  let stop: () => void = () => undefined;
  afterEach(() => stop());

  it('closes a session soon after the idle timeout, also when a reload lowered it', async () => {
    let config: AppConfig = parseConfig({ mcpServers: {}, gateway: { sessionIdleMs: 60_000 } }, null);
    const open = new Map<string, Fake>();
    const closedAt = new Map<string, number>();
    const gateway = {
      sessions: () => [...open.values()] as unknown as AgentSession[],
      async closeIdle(idleMs: number) {
        let n = 0;
        for (const s of open.values()) {
          if (s.requests.size === 0 && Date.now() - s.lastActivity > idleMs) {
            open.delete(s.id);
            closedAt.set(s.id, Date.now());
            n += 1;
          }
        }
        return n;
      },
    };
    const started = Date.now();
    open.set('quiet', { id: 'quiet', idles: true, lastActivity: started, requests: new Set() });
    open.set('busy', {
      id: 'busy',
      idles: true,
      lastActivity: started,
      requests: new Set([{ controller: new AbortController(), ended: new Promise(() => undefined) }]),
    });
    stop = sweepIdleSessions({ gateway, config: () => config, log: pino({ level: 'silent' }) });
    // The timeout drops from a minute to 300 ms: the sweep notices within two seconds.
    config = parseConfig({ mcpServers: {}, gateway: { sessionIdleMs: 300 } }, null);
    const at = await waitFor(() => closedAt.get('quiet'), { timeoutMs: 4_000, what: 'the quiet session closed' });
    expect(at - started).toBeLessThan(3_000);
    expect(open.has('busy')).toBe(true);
  });
});
