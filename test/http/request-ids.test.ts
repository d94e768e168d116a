/**
 * Request ids on one Streamable HTTP session (SPEC G1): a request under an id already in
 * flight is refused at once, naming the id, and the first is answered; a request the client
 * cancels ends its POST instead of leaving it open for ever, and its id can be used again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchInitialize } from '../support/initialize.js';
import { startTransportSession } from '../support/transport-session.js';

type Session = Awaited<ReturnType<typeof startTransportSession>>;
const VERSION = '2025-11-25';

const call = (id: number | string, name: string, args: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: args },
});

/** Settles with the value, or rejects after `ms`: a POST that never ends fails the test, not the run. */
const within = <T>(promise: Promise<T>, ms: number, what: string): Promise<T> =>
  Promise.race([
    promise,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what} did not end in ${ms} ms`)), ms)),
  ]);

describe('request ids in flight on a session', () => {
  let s: Session;
  let sessionId: string;
  const post = (body: unknown) =>
    fetch(s.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': sessionId,
        'mcp-protocol-version': VERSION,
      },
      body: JSON.stringify(body),
    });

  beforeAll(async () => {
    // No keep-alive during a test: a POST that stays open would only show keep-alives.
    s = await startTransportSession({ keepAliveMs: 600_000 });
    const init = await fetchInitialize(s.url, VERSION);
    sessionId = init.headers.get('mcp-session-id') as string;
    expect((await post({ jsonrpc: '2.0', method: 'notifications/initialized' })).status).toBe(202);
  });
  afterAll(async () => {
    await s.close();
  });

  it('refuses a second request under an id in flight at once, naming it, and answers the first', async () => {
    const gate = s.nextGate();
    const first = post(call(7, 'silent'));
    await gate.held;
    const second = await within(post(call(7, 'echo', { text: 'second' })), 5_000, 'the second POST');
    expect(second.status).toBe(400);
    expect(await second.json()).toEqual({
      jsonrpc: '2.0',
      id: 7,
      error: { code: -32600, message: 'Invalid Request: request id 7 is already in flight on this session' },
    });
    gate.release();
    const answered = await within(first, 5_000, 'the first POST');
    expect(answered.status).toBe(200);
    expect(await answered.json()).toMatchObject({ id: 7, result: { content: [{ text: 'spoke at last' }] } });
    // Answered, the id is free again.
    expect(await (await post(call(7, 'echo', { text: 'again' }))).json()).toMatchObject({ id: 7 });
  });

  it('refuses a batch that uses one id twice, and a string id in flight, each naming it', async () => {
    const twice = await post([call('a', 'echo', { text: '1' }), call('a', 'echo', { text: '2' })]);
    expect(twice.status).toBe(400);
    expect(await twice.json()).toMatchObject({
      id: 'a',
      error: { code: -32600, message: 'Invalid Request: request id "a" appears more than once in this batch' },
    });
    const gate = s.nextGate();
    const first = post(call('job', 'silent'));
    await gate.held;
    const batch = await post([call(1, 'echo', { text: 'x' }), call('job', 'echo', { text: 'y' })]);
    expect(batch.status).toBe(400);
    expect(((await batch.json()) as { error: { message: string } }).error.message).toContain(
      'request id "job" is already in flight',
    );
    gate.release();
    expect((await within(first, 5_000, 'the first POST')).status).toBe(200);
  });

  it('ends the POST of a request the client cancelled, and the id can be used again', async () => {
    const gate = s.nextGate();
    const cancelled = post(call(9, 'silent'));
    await gate.held;
    const notice = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 9, reason: 'test' } };
    expect((await post(notice)).status).toBe(202);
    // No answer comes after a cancellation: the POST ends with nothing in it.
    const ended = await within(cancelled, 5_000, 'the cancelled POST');
    expect(ended.status).toBe(202);
    expect(await ended.text()).toBe('');
    expect(await (await post(call(9, 'echo', { text: 'reused' }))).json()).toMatchObject({
      id: 9,
      result: { content: [{ text: 'reused' }] },
    });
    gate.release();
  });
});
