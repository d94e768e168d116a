/**
 * The connection machine's `needs_authorization` state (issue 23, SPEC U2): an upstream that
 * wants an OAuth authorization waits for one, visibly, instead of retrying with backoff; a
 * `server.connect` (sent once tokens are stored) connects it.
 */
import { describe, expect, it } from 'vitest';
import { toErrorInfo } from '../../machines/index.js';
import { CONNECTED, fakeUpstream, flush, NEEDS_AUTHORIZATION, startConnection } from './fixtures.js';

const reason = {
  message: 'server "s1" needs authorization at https://as.example (no authorization is stored)',
  code: 'needs_authorization',
  authorizationServer: 'https://as.example',
};

describe('connection machine: needs_authorization', () => {
  it('waits in needs_authorization, naming the authorization server, with no retry scheduled', async () => {
    const fake = fakeUpstream();
    fake.scriptConnect('s1', 'unauthorized');
    const t = startConnection({ fake });
    await flush();
    expect(t.state()).toBe('needs_authorization');
    expect(t.take()).toEqual([
      { type: 'connecting', server: 's1', attempt: 0 },
      { type: 'needs_authorization', server: 's1', authorizationServer: 'https://as.example', error: reason },
    ]);
    // However long it waits, nothing is retried.
    t.clock.increment(3_600_000);
    await flush();
    expect(t.state()).toBe('needs_authorization');
    expect(t.fake.connects).toHaveLength(1);
    expect(t.context().nextDelayMs).toBeNull();
  });

  it('connects on server.connect once authorized', async () => {
    const fake = fakeUpstream();
    fake.scriptConnect('s1', 'unauthorized', 'ok');
    const t = startConnection({ fake });
    await flush();
    t.take();
    t.actor.send({ type: 'server.connect' });
    await flush();
    expect(t.state()).toEqual({ connected: 'idle' });
    expect(t.take()).toEqual([
      { type: 'connecting', server: 's1', attempt: 0 },
      { ...CONNECTED, attempt: 0 },
    ]);
  });

  it('a live connection closed for want of authorization (a refresh refused) waits too', async () => {
    const t = startConnection();
    await flush();
    t.take();
    t.fake.watcher('s1')?.sendBack({ type: 'upstream.closed', error: toErrorInfo(NEEDS_AUTHORIZATION()) });
    await flush();
    expect(t.state()).toBe('needs_authorization');
    expect(t.take()).toEqual([
      { type: 'needs_authorization', server: 's1', authorizationServer: 'https://as.example', error: reason },
    ]);
  });

  it('any other failure still reconnects with backoff', async () => {
    const fake = fakeUpstream();
    fake.scriptConnect('s1', 'fail');
    const t = startConnection({ fake });
    await flush();
    expect(t.state()).toBe('reconnecting');
  });
});
