/**
 * Issue 17 item 9, ADR 022 §6: the bytes of request bodies one token may have in the
 * service at once. Over its budget, with no room to wait, a large POST is refused unread
 * with a 429 naming the setting, and its connection closed; small POSTs of the same token
 * and another token's large ones go through. The budget itself: in order, a body alone
 * always fits, waiters leave on abort and on the wait's end.
 */

import { request } from 'node:http';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBodyBudget, SMALL_BODY_BYTES } from '../../../src/http/perimeter/body-budget.js';
import { BUSY_SERVER } from '../../support/fixtures.js';
import { connectHttpClient } from '../../support/mcp-client.js';
import { startTestService, TEST_TOKEN, type TestService } from '../../support/test-service.js';
import { waitFor } from '../../support/wait-for.js';

const MiB = 1024 * 1024;
const limits = { maxBytes: 3 * MiB, maxWaiting: 2 };
type Release = () => void;

describe('createBodyBudget', () => {
  const open = () => new AbortController().signal;

  it('does not count small bodies', () => {
    const budget = createBodyBudget();
    const release = budget.take('a', SMALL_BODY_BYTES, limits, open());
    expect(release).toBeTypeOf('function');
    expect(budget.held('a')).toBe(0);
  });

  it('holds what fits, makes the next wait, and lets it in when room comes, per key', async () => {
    const budget = createBodyBudget();
    const first = budget.take('a', 2 * MiB, limits, open()) as Release;
    expect(first).toBeTypeOf('function');
    expect(budget.held('a')).toBe(2 * MiB);
    const second = budget.take('a', 2 * MiB, limits, open());
    expect(second).toBeInstanceOf(Promise);
    // Another key has its own budget.
    expect(budget.take('b', 2 * MiB, limits, open())).toBeTypeOf('function');
    first();
    const admitted = (await second) as Release;
    expect(admitted).toBeTypeOf('function');
    expect(budget.held('a')).toBe(2 * MiB);
    admitted();
    // A release is idempotent.
    admitted();
    expect(budget.held('a')).toBe(0);
  });

  it('lets a body larger than the whole budget in alone', () => {
    const budget = createBodyBudget();
    expect(budget.take('a', 10 * MiB, limits, open())).toBeTypeOf('function');
    expect(budget.held('a')).toBe(10 * MiB);
  });

  it('refuses once maxWaiting wait, and keeps the order of the line', async () => {
    const budget = createBodyBudget();
    const first = budget.take('a', 2 * MiB, limits, open()) as Release;
    const order: string[] = [];
    const queued = (name: string, bytes: number) =>
      (budget.take('a', bytes, limits, open()) as Promise<Release | null>).then((release) => {
        order.push(name);
        return release;
      });
    const w1 = queued('w1', 2 * MiB);
    const w2 = queued('w2', 100 * 1024);
    // Two waiting: the third is refused at once, though it would fit.
    expect(budget.take('a', 100 * 1024, limits, open())).toBeNull();
    first();
    const [r1, r2] = await Promise.all([w1, w2]);
    expect(order).toEqual(['w1', 'w2']);
    expect(r1).toBeTypeOf('function');
    expect(r2).toBeTypeOf('function');
  });

  it('gives a waiter up when its signal aborts or its wait ends', async () => {
    const budget = createBodyBudget({ waitMs: 50 });
    const release = budget.take('a', 3 * MiB, limits, open()) as Release;
    const gone = new AbortController();
    const aborted = budget.take('a', 2 * MiB, limits, gone.signal);
    gone.abort();
    expect(await aborted).toBeNull();
    expect(await budget.take('a', 2 * MiB, limits, open())).toBeNull();
    release();
    expect(budget.held('a')).toBe(0);
  });
});

describe("a token's POST bodies over its budget", () => {
  let svc: TestService;
  let admin: Client;
  let other: Client;
  beforeAll(async () => {
    svc = await startTestService({
      mcpServers: { busy: { command: process.execPath, args: [BUSY_SERVER] } },
      // 1 MiB of bodies in at once per token, none waiting: the second large POST is refused;
      // two large requests on the upstream at once, so that another token's need not wait.
      limits: { inFlight: { bodyBytesPerToken: MiB, queuePerToken: 0, largePerUpstream: 2 } },
    });
    await waitFor(async () => (await svc.server('busy'))?.state === 'connected', { what: 'busy connected' });
    const made = await svc.api<{ token: string }>('/api/tokens', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'other' }),
    });
    admin = await connectHttpClient(`${svc.service.url}/mcp`);
    other = await connectHttpClient(`${svc.service.url}/mcp`, {}, made.body.token);
  }, 30_000);
  afterAll(async () => {
    await admin?.close();
    await other?.close();
    await svc?.stop();
  });

  /** A POST on the admin's session. */
  const post = (id: number, method: string, params: Record<string, unknown>) =>
    fetch(`${svc.service.url}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${TEST_TOKEN}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': (admin.transport as StreamableHTTPClientTransport).sessionId as string,
        'mcp-protocol-version': '2025-11-25',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
    });
  /** A POST on the admin's session with node's http client, which reads an answer that comes while it still writes. */
  const rawPost = (body: string, { chunked = false } = {}) =>
    new Promise<{ status: number; body: string; connection: string | undefined }>((resolve, reject) => {
      const req = request(`${svc.service.url}/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${TEST_TOKEN}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-session-id': (admin.transport as StreamableHTTPClientTransport).sessionId as string,
          'mcp-protocol-version': '2025-11-25',
          ...(chunked ? { 'transfer-encoding': 'chunked' } : { 'content-length': String(Buffer.byteLength(body)) }),
        },
      });
      let answered = false;
      req.on('response', (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks).toString('utf8'),
            connection: res.headers.connection,
          }),
        );
      });
      // A reset while the body is still being written, after the answer came, is the closing connection's.
      req.on('error', (error) => (answered ? undefined : reject(error)));
      req.end(body);
    });
  const spin = (id: number, args: Record<string, unknown>) =>
    post(id, 'tools/call', { name: 'busy__spin', arguments: args });
  const padding = 'x'.repeat(2 * MiB);

  it('refuses a second large POST of the token unread, naming the setting; small ones and other tokens go on', async () => {
    // The first large POST holds 2 MiB of the admin's budget while the upstream spins.
    const first = spin(1, { ms: 1_500, padding });
    const metrics = () =>
      fetch(`${svc.service.url}/metrics`, { headers: { authorization: `Bearer ${TEST_TOKEN}` } }).then((r) => r.text());
    await waitFor(async () => (await metrics()).includes('boternity_upstream_requests_in_flight{server="busy"} 1'), {
      what: 'the first large call in flight',
    });

    const over = await spin(2, { ms: 1, padding });
    expect(over.status).toBe(429);
    expect(over.headers.get('retry-after')).toBe('1');
    // Its body is discarded unparsed, and its connection kept.
    expect(over.headers.get('connection')).not.toBe('close');
    expect(await over.json()).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32000,
        message:
          'too many requests: this token has 2 MiB of request bodies in the service, at its cap of 1 MiB (limits.inFlight.bodyBytesPerToken), and 0 more waiting (limits.inFlight.queuePerToken); retry once some have answered',
        data: { retryAfterSeconds: 1, scope: 'in_flight', setting: 'limits.inFlight.bodyBytesPerToken', limit: MiB },
      },
    });

    // A client still uploading when the refusal comes reads it (node's http client): no reset.
    const raw = await rawPost(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 5,
        method: 'tools/call',
        params: { name: 'busy__spin', arguments: { padding } },
      }),
    );
    expect(raw.status).toBe(429);
    expect(JSON.parse(raw.body)).toMatchObject({
      id: null,
      error: { data: { setting: 'limits.inFlight.bodyBytesPerToken' } },
    });
    // Of unknown length (chunked), the refusal closes the connection: what it would send is not taken in.
    const chunked = await rawPost(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 6,
        method: 'tools/call',
        params: { name: 'busy__spin', arguments: { padding } },
      }),
      { chunked: true },
    );
    expect(chunked.status).toBe(429);
    expect(chunked.connection).toBe('close');

    // Another token's large request has its own budget (the upstream answers it after the first).
    const others = other.callTool({ name: 'busy__spin', arguments: { ms: 1, padding } });
    // A small request of the same token is not held back by the budget.
    const small = await spin(3, { ms: 1 });
    expect(small.status).toBe(200);
    expect((await others).content).toEqual([{ type: 'text', text: 'spun' }]);

    const answered = await first;
    expect(answered.status).toBe(200);
    expect(await answered.text()).toContain('spun');
    // Answered, the budget is free again: a large body of the same token is read and answered.
    const list = await post(4, 'tools/list', { _meta: { padding } });
    expect(list.status).toBe(200);
    expect(await list.text()).toContain('busy__spin');
  });
});
