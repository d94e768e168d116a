/**
 * Test-tool as server-sent events (`Accept: text/event-stream`, issue 19 item "tool inventory",
 * ADR 026) against the real service over real HTTP, with real stdio upstreams (a progress
 * fixture and server-everything): progress in order, then the result with the call's
 * duration; an error part-way as an `error` event; the JSON answer as before plus
 * `durationMs`, with no progress asked of the upstream; a client that goes away cancels the
 * call upstream (the upstream hears `notifications/cancelled`) and the audit says so; bad
 * bodies and refusals answer the same JSON errors with or without the stream.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wantsEventStream } from '../../src/http/api/call-tool-route.js';
import { EVERYTHING_BIN } from '../support/everything.js';
import { fixtureServer } from '../support/fixtures.js';
import { startTestService, TEST_TOKEN, type TestService } from '../support/test-service.js';
import { waitFor } from '../support/wait-for.js';

const PROGRESS_SERVER = fixtureServer('progress-server.mjs');
const STREAM = 'text/event-stream';

type Event = { event: string; data: Record<string, unknown> };

/** The SSE blocks of `text`, each event's data parsed. */
function parseEvents(text: string): Event[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const line = (field: string) =>
        block
          .split('\n')
          .find((l) => l.startsWith(`${field}:`))
          ?.slice(field.length + 1)
          .trim() ?? '';
      return { event: line('event'), data: JSON.parse(line('data')) as Record<string, unknown> };
    });
}

describe('test-tool as server-sent events', { timeout: 60_000 }, () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({
      mcpServers: {
        progress: { command: process.execPath, args: [PROGRESS_SERVER] },
        everything: { command: process.execPath, args: [EVERYTHING_BIN, 'stdio'] },
      },
    });
    await waitFor(async () => (await svc.servers()).every((s) => s.state === 'connected'), {
      what: 'both servers connected',
      timeoutMs: 30_000,
    });
  });
  afterAll(async () => {
    await svc?.stop();
  });

  /** POST a call with `accept` (none when null); `body` raw when a string. */
  const post = (path: string, body: unknown, accept: string | null, init: RequestInit = {}) =>
    fetch(`${svc.service.url}/api/servers/${path}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${TEST_TOKEN}`,
        'content-type': 'application/json',
        ...(accept === null ? {} : { accept }),
      },
      body: typeof body === 'string' ? body : JSON.stringify(body),
      ...init,
    });
  const cancellations = async () => {
    const response = await post('progress/tools/cancellations/call', {}, null);
    const answer = (await response.json()) as { result: { structuredContent: { cancellations: unknown[] } } };
    return answer.result.structuredContent.cancellations;
  };
  const auditRows = async (tool: string) =>
    (await svc.api<{ entries: Record<string, unknown>[] }>(`/api/audit?server=progress&tool=${tool}`)).body.entries;

  it('streams progress in order, then the result with the call duration', async () => {
    const response = await post('progress/tools/count/call', { arguments: { steps: 4, stepMs: 120 } }, STREAM);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = parseEvents(await response.text());
    // Every step's progress, in order, each with its total and message, the last one too,
    // though it comes in the same breath as the answer (ADR 026: progress before answer).
    const progress = events.slice(0, -1);
    expect(progress.map((e) => e.event)).toEqual(['progress', 'progress', 'progress', 'progress']);
    expect(progress.map((e) => e.data)).toEqual(
      [1, 2, 3, 4].map((step) => ({ progress: step, total: 4, message: `step ${step} done` })),
    );
    expect(events.at(-1)?.event).toBe('result');
    const final = events.at(-1)?.data as { result: { structuredContent: unknown }; durationMs: number };
    expect(final.result.structuredContent).toEqual({ counted: 4, progressAsked: true });
    // Four steps of 120 ms each, at the least.
    expect(final.durationMs).toBeGreaterThanOrEqual(480);
    expect(Number.isInteger(final.durationMs)).toBe(true);
  });

  it("relays a real server's progress (server-everything's long-running operation)", async () => {
    const response = await post(
      'everything/tools/trigger-long-running-operation/call',
      { arguments: { duration: 0.3, steps: 3 } },
      STREAM,
    );
    const events = parseEvents(await response.text());
    // Its last progress comes in the same breath as its answer: it is relayed all the same.
    const progress = events.filter((e) => e.event === 'progress').map((e) => [e.data.progress, e.data.total]);
    expect(progress).toEqual([
      [1, 3],
      [2, 3],
      [3, 3],
    ]);
    expect(events.at(-1)?.event).toBe('result');
    expect(JSON.stringify(events.at(-1)?.data.result)).toContain('Long running operation completed');
  });

  it('never drops a last progress sent with the answer (the SDK client handled the answer first, issue 2580)', async () => {
    // Steps with no pause: the last progress and the answer are one read on the gateway's
    // side and on the call's own. Twenty calls at once, each must have its three steps.
    const runs = await Promise.all(
      Array.from({ length: 20 }, async () => {
        const response = await post('progress/tools/count/call', { arguments: { steps: 3, stepMs: 0 } }, STREAM);
        return parseEvents(await response.text()).map((e) => (e.event === 'progress' ? e.data.progress : e.event));
      }),
    );
    expect(runs).toEqual(Array.from({ length: 20 }, () => [1, 2, 3, 'result']));
  });

  it('a failure after some progress is an error event with its status and duration', async () => {
    const response = await post(
      'progress/tools/count/call',
      { arguments: { steps: 5, stepMs: 200, failAt: 2 } },
      STREAM,
    );
    const events = parseEvents(await response.text());
    // Both steps' progress (the second may be dropped with the answer, as above; steps far
    // apart so that the first is read on its own), then the error.
    expect([
      ['progress', 'progress', 'error'],
      ['progress', 'error'],
    ]).toContainEqual(events.map((e) => e.event));
    expect(events.at(-1)?.data).toMatchObject({
      error: { code: 'upstream_failed', message: expect.stringContaining('gave up after step 2') },
      status: 502,
    });
    expect(events.at(-1)?.data.durationMs).toEqual(expect.any(Number));
  });

  it('answers JSON by default, now with durationMs, and asks the upstream for no progress', async () => {
    for (const accept of [null, 'application/json', '*/*', `application/json, ${STREAM}`, 'text/html']) {
      const response = await post('progress/tools/count/call', { arguments: { steps: 2, stepMs: 1 } }, accept);
      expect(response.headers.get('content-type'), String(accept)).toMatch(/^application\/json/);
      const body = (await response.json()) as Record<string, unknown>;
      expect(Object.keys(body).sort()).toEqual(['durationMs', 'result']);
      expect(body.result).toEqual({
        content: [{ type: 'text', text: '{"counted":2,"progressAsked":false}' }],
        structuredContent: { counted: 2, progressAsked: false },
      });
      expect(body.durationMs).toEqual(expect.any(Number));
    }
  });

  it('a client that goes away mid-stream cancels the call upstream, and the audit says so', async () => {
    const before = (await cancellations()).length;
    const controller = new AbortController();
    const response = await post('progress/tools/count/call', { arguments: { steps: 500, stepMs: 50 } }, STREAM, {
      signal: controller.signal,
    });
    // Read up to the first progress event, then hang up.
    const reader = (response.body as ReadableStream<Uint8Array>).pipeThrough(new TextDecoderStream()).getReader();
    let seen = '';
    while (!seen.includes('event: progress')) seen += (await reader.read()).value ?? '';
    controller.abort();
    const heard = await waitFor(async () => (await cancellations()).slice(before)[0], {
      what: 'the upstream hearing notifications/cancelled',
    });
    expect(heard).toMatchObject({
      step: expect.any(Number),
      reason: expect.stringContaining('cancelled by the client'),
    });
    const row = await waitFor(
      async () => (await auditRows('count')).find((r) => r.error === 'cancelled by the client'),
      {
        what: 'the audit row',
      },
    );
    expect(row).toMatchObject({ eventType: 'tool_call', clientId: 'admin', success: false });
  });

  it('a JSON call the client abandons is cancelled upstream too', async () => {
    const before = (await cancellations()).length;
    const rowsBefore = (await auditRows('count')).filter((r) => r.error === 'cancelled by the client').length;
    const controller = new AbortController();
    const call = post('progress/tools/count/call', { arguments: { steps: 500, stepMs: 50 } }, null, {
      signal: controller.signal,
    }).catch((error: unknown) => (error as Error).name);
    await waitFor(() => svc.service.gateway.sessions().some((s) => s.clientId === 'admin' && s.requests.size > 0), {
      what: 'the call in flight',
    });
    controller.abort();
    expect(await call).toBe('AbortError');
    await waitFor(async () => (await cancellations()).length > before, { what: 'the upstream hearing the cancel' });
    await waitFor(
      async () => (await auditRows('count')).filter((r) => r.error === 'cancelled by the client').length > rowsBefore,
      { what: 'the audit row' },
    );
  });

  it('refuses bad bodies and unknown tools with the same JSON errors, stream asked or not', async () => {
    const cases: [string, unknown, string?][] = [
      ['progress/tools/count/call', '{"arguments":'],
      ['progress/tools/count/call', { arguments: [1] }],
      ['progress/tools/count/call', { arguments: {}, extra: 1 }],
      ['progress/tools/nope/call', { arguments: {} }],
      ['missing/tools/count/call', { arguments: {} }],
    ];
    for (const [path, body] of cases) {
      const plain = await post(path, body, null);
      const streamed = await post(path, body, STREAM);
      expect(streamed.status, path).toBe(plain.status);
      expect(streamed.headers.get('content-type')).toMatch(/^application\/json/);
      const [a, b] = [await plain.json(), await streamed.json()];
      expect(b, JSON.stringify(body)).toEqual(a);
      expect((a as { error: { message: string } }).error.message).not.toContain('\n');
    }
    const wrongType = await post('progress/tools/count/call', '{}', STREAM, {
      headers: { authorization: `Bearer ${TEST_TOKEN}`, 'content-type': 'text/plain', accept: STREAM },
    });
    expect(wrongType.status).toBe(415);
    expect(await wrongType.json()).toEqual({
      error: { code: 'bad_request', message: 'request body must be JSON (Content-Type: application/json)' },
    });
  });

  it('takes the stream only when it is asked for above JSON', () => {
    expect(wantsEventStream(STREAM)).toBe(true);
    expect(wantsEventStream(`${STREAM}, application/json;q=0.5`)).toBe(true);
    expect(wantsEventStream(`application/json, ${STREAM}`)).toBe(false);
    expect(wantsEventStream(`${STREAM};q=0`)).toBe(false);
    expect(wantsEventStream(undefined)).toBe(false);
    expect(wantsEventStream('*/*')).toBe(false);
  });
});
