/**
 * A `scope: "session"` server's own connection (G6) is opened on the session's first request
 * and closed with the session; a request that races the session's end opens none (it would be
 * stored where nobody closes it: a child process left running, against S6).
 */
import { describe, expect, it } from 'vitest';
import type { ServerConfig } from '../../../src/config/schema.js';
import { createCallTracker } from '../../../src/gateway/relay/call-tracker.js';
import type { AgentSession } from '../../../src/gateway/session/agent-session.js';
import { createSessionUpstreams } from '../../../src/gateway/session/session-upstreams.js';
import type { OwnedUpstream, UpstreamPeer } from '../../../src/upstream/types.js';
import { testLogger } from '../../support/fixtures.js';

describe('the connections of a session', () => {
  it('opens a session-scoped server once, closes it with the session, and opens none after', async () => {
    const opened: string[] = [];
    const closed: string[] = [];
    const upstreams = createSessionUpstreams({
      hub: {
        upstream: () => null,
        getServer: () => {
          throw new Error('not asked');
        },
      },
      tracker: createCallTracker(),
      log: testLogger(),
      // Our own port: a stand-in connection that says when it is opened and closed.
      openUpstream: async ({ serverId }) => {
        opened.push(serverId);
        return {
          pid: null,
          closed: new Promise(() => undefined),
          capabilities: () => undefined,
          close: async () => {
            closed.push(serverId);
          },
        } as unknown as OwnedUpstream;
      },
      peerFor: () => ({}) as UpstreamPeer,
    });
    const session = { id: 's1', ownUpstreams: new Map(), loggingLevel: null } as unknown as AgentSession;
    const config = { scope: 'session' } as ServerConfig;
    await upstreams.connectionFor(session, 'own', config);
    await upstreams.connectionFor(session, 'own', config);
    expect(opened).toEqual(['own']);
    await upstreams.closeAll(session);
    expect(closed).toEqual(['own']);
    await expect(upstreams.connectionFor(session, 'own', config)).rejects.toThrow(
      'server "own" could not be opened for this session: the session has ended',
    );
    expect(opened).toEqual(['own']);
    expect(session.ownUpstreams.size).toBe(0);
  });
});
