/**
 * Issue 17 items 7 and 14: what a remote upstream answers is bounded by `maxAnswerBytes`
 * as it streams (the request is aborted at the bound, so the upstream sees its socket
 * close before it wrote everything), a call that ended aborts its HTTP request at once,
 * and a stream that dies fails its calls at once with the cause, not with a timeout.
 */
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connectUpstream } from '../../src/upstream/connect-upstream.js';
import type { LiveUpstream } from '../../src/upstream/types.js';
import { type AnswerServer, type AnswerServerMode, startAnswerServer } from '../support/answer-server.js';
import { testLogger } from '../support/fixtures.js';
import { remoteConfig } from '../support/server-config.js';
import { waitFor } from '../support/wait-for.js';

const log = testLogger();
const LIMIT = 64 * 1024;
// Far more than loopback buffers hold: the upstream cannot have written it all when cut.
const HUGE = 16 * 1024 * 1024;

async function connect(server: AnswerServer, type: 'http' | 'sse'): Promise<LiveUpstream> {
  const config = remoteConfig({ type, url: server.url, maxAnswerBytes: LIMIT });
  return connectUpstream({ serverId: 'answers', config, log, graceMs: 500 });
}

/** The call's rejection and how long after `started` it came. */
async function failure(call: Promise<unknown>, started = Date.now()): Promise<{ error: Error; ms: number }> {
  const error = await call.then(
    () => new Error('the call succeeded'),
    (e: unknown) => e as Error,
  );
  return { error, ms: Date.now() - started };
}

/** How the latest recorded response ended, and how long after `since`. */
async function closedAfter(responses: AnswerServer['calls'], since: number) {
  const last = await waitFor(() => responses.at(-1), { what: 'the request at the upstream' });
  const closed = await Promise.race([
    last.closed,
    new Promise<null>((resolve) => setTimeout(() => resolve(null), 3_000).unref()),
  ]);
  return closed && { cut: closed.cut, ms: closed.at - since };
}

describe.each<AnswerServerMode>(['json', 'stream'])('a Streamable HTTP upstream answering as %s', (mode) => {
  let server: AnswerServer;
  let upstream: LiveUpstream;
  beforeAll(async () => {
    server = await startAnswerServer(mode);
    upstream = await connect(server, 'http');
  });
  afterAll(async () => {
    await upstream?.close();
    await server?.stop();
  });

  it('fails an answer over maxAnswerBytes naming the bound, stops reading it, and keeps the connection', async () => {
    const { error } = await failure(
      upstream.callTool({ name: 'big', arguments: { bytes: HUGE } }, { timeout: 30_000 }),
    );
    expect(error.message).toBe(
      `server "answers" answered over ${LIMIT} bytes (maxAnswerBytes): the answer was not read`,
    );
    const closed = await closedAfter(server.calls, Date.now());
    expect(closed?.cut).toBe(true);
    const small = await upstream.callTool({ name: 'big', arguments: { bytes: 1_000 } });
    expect((small.content[0] as { text: string }).text).toHaveLength(1_000);
  });

  it('aborts the request of a call that timed out, at once', async () => {
    const { error, ms } = await failure(upstream.callTool({ name: 'hang', arguments: {} }, { timeout: 300 }));
    expect(error).toBeInstanceOf(McpError);
    const closed = await closedAfter(server.calls, Date.now() - ms);
    expect(closed).not.toBeNull();
    expect(closed?.cut).toBe(true);
    expect(closed?.ms).toBeLessThan(ms + 1_000);
  });

  it('aborts the request of a call its caller cancelled, at once', async () => {
    const calls = server.calls.length;
    const controller = new AbortController();
    const call = upstream.callTool({ name: 'hang', arguments: {} }, { signal: controller.signal, timeout: 30_000 });
    await waitFor(() => server.calls.length > calls, { what: 'the call at the upstream' });
    const cancelledAt = Date.now();
    controller.abort();
    await failure(call);
    const closed = await closedAfter(server.calls, cancelledAt);
    expect(closed?.cut).toBe(true);
    expect(closed?.ms).toBeLessThan(1_000);
  });
});

describe('a Streamable HTTP answer stream that dies', () => {
  let server: AnswerServer;
  let upstream: LiveUpstream;
  beforeAll(async () => {
    server = await startAnswerServer('stream');
    upstream = await connect(server, 'http');
  });
  afterAll(async () => {
    await upstream?.close();
    await server?.stop();
  });

  it('fails its call at once with the cause, and the connection goes on', async () => {
    const { error, ms } = await failure(upstream.callTool({ name: 'die', arguments: {} }, { timeout: 30_000 }));
    expect(error.message).toMatch(/^server "answers" broke off the answer stream \(.+\) before answering$/);
    expect(ms).toBeLessThan(5_000);
    const echo = await upstream.callTool({ name: 'echo', arguments: { text: 'still here' } });
    expect(echo.content).toEqual([{ type: 'text', text: 'still here' }]);
  });
});

describe('a legacy SSE upstream', () => {
  let server: AnswerServer;
  const opened: LiveUpstream[] = [];
  beforeAll(async () => {
    server = await startAnswerServer('sse');
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((u) => u.close()));
  });
  afterAll(async () => {
    await server?.stop();
  });
  const open = async () => {
    const upstream = await connect(server, 'sse');
    opened.push(upstream);
    return upstream;
  };

  it('cuts its one stream at a message over maxAnswerBytes: the calls fail naming the bound, the connection closes', async () => {
    const upstream = await open();
    const { error } = await failure(
      upstream.callTool({ name: 'big', arguments: { bytes: HUGE } }, { timeout: 30_000 }),
    );
    const expected = `server "answers" sent a message over ${LIMIT} bytes (maxAnswerBytes): it was not read, and the connection was closed`;
    expect(error.message).toBe(expected);
    expect((await upstream.closed).error?.message).toBe(expected);
    const closed = await closedAfter(server.streams, Date.now());
    expect(closed?.cut).toBe(true);
  });

  it('fails the calls in flight at once when its stream ends, saying so', async () => {
    const upstream = await open();
    const started = Date.now();
    const [dying, waiting] = await Promise.all([
      failure(upstream.callTool({ name: 'die', arguments: {} }, { timeout: 30_000 }), started),
      failure(upstream.callTool({ name: 'hang', arguments: {} }, { timeout: 30_000 }), started),
    ]);
    for (const { error, ms } of [dying, waiting]) {
      expect(error.message).toBe('server "answers" ended its event stream');
      expect(ms).toBeLessThan(5_000);
    }
    expect((await upstream.closed).error?.message).toBe('server "answers" ended its event stream');
  });
});
