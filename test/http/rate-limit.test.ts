/** The rate-limit middleware (SPEC X3) on a small app, with the caller taken from a header. */
import { Hono, type MiddlewareHandler } from 'hono';
import { describe, expect, it } from 'vitest';
import type { AppConfig } from '../../src/config/schema.js';
import type { Caller } from '../../src/guard/caller.js';
import { jsonRpcRequestId, rateLimit, rateLimitKey, retryAfterSeconds } from '../../src/http/rate-limit.js';
import '../../src/http/require-token.js';
import { waitFor } from '../support/wait-for.js';

type Limits = Pick<AppConfig['limits'], 'perClient' | 'global'>;

function appWith(limits: () => Limits) {
  const app = new Hono();
  const limit = rateLimit({ limits });
  const who: MiddlewareHandler = async (c, next) => {
    const id = c.req.header('x-who') ?? 'admin';
    const caller: Caller = id === 'admin' ? { kind: 'admin' } : { kind: 'client', tokenId: id, name: id };
    c.set('caller', caller);
    await next();
  };
  app.use('/api/*', who, limit);
  // Mounted twice on /mcp, as in create-app.ts: still one point per request.
  app.use('/mcp', who, limit);
  app.use('/mcp/*', who, limit);
  app.get('/api/x', (c) => c.json({ ok: true }));
  app.all('/mcp', (c) => c.json({ ok: true }));
  return app;
}

const get = (app: Hono, who = 'admin') => app.request('/api/x', { headers: { 'x-who': who } });
const mcp = (app: Hono, body: string, who = 'admin') =>
  app.request('/mcp', { method: 'POST', headers: { 'x-who': who, 'content-type': 'application/json' }, body });

describe('rateLimit', () => {
  it('does not limit when no limit is configured', async () => {
    const app = appWith(() => ({}));
    for (let i = 0; i < 20; i++) expect((await get(app)).status).toBe(200);
  });

  it('keys per client and answers the API error shape with Retry-After', async () => {
    const app = appWith(() => ({ perClient: { requests: 2, perSeconds: 30 } }));
    expect((await get(app)).status).toBe(200);
    expect((await get(app)).status).toBe(200);
    const over = await get(app);
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThanOrEqual(29);
    expect(Number(over.headers.get('retry-after'))).toBeLessThanOrEqual(30);
    expect(await over.json()).toEqual({
      error: {
        code: 'rate_limited',
        message: expect.stringMatching(/^rate limit exceeded \(client\): retry after \d+ s$/),
      },
    });
    expect((await get(app, 't1')).status).toBe(200);
  });

  it('counts a request once on /mcp and answers a JSON-RPC error with the request id', async () => {
    const app = appWith(() => ({ perClient: { requests: 2, perSeconds: 10 } }));
    const body = JSON.stringify({ jsonrpc: '2.0', id: 'req-7', method: 'tools/list' });
    expect((await mcp(app, body)).status).toBe(200);
    expect((await mcp(app, body)).status).toBe(200);
    const over = await mcp(app, body);
    expect(over.status).toBe(429);
    const seconds = Number(over.headers.get('retry-after'));
    expect(seconds).toBeGreaterThanOrEqual(1);
    expect(await over.json()).toEqual({
      jsonrpc: '2.0',
      error: {
        code: -32000,
        message: `rate limit exceeded: retry after ${seconds} s`,
        data: { retryAfterSeconds: seconds, scope: 'client' },
      },
      id: 'req-7',
    });
    const batch = await mcp(app, `[${body}]`);
    expect(((await batch.json()) as { id: unknown }).id).toBeNull();
  });

  it('takes from the global budget only what the client limit let through', async () => {
    const app = appWith(() => ({
      perClient: { requests: 2, perSeconds: 30 },
      global: { requests: 3, perSeconds: 30 },
    }));
    expect((await get(app, 'a')).status).toBe(200);
    expect((await get(app, 'a')).status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await get(app, 'a')).status).toBe(429);
    expect((await get(app, 'b')).status).toBe(200);
    const over = await get(app, 'b');
    expect(over.status).toBe(429);
    expect(((await over.json()) as { error: { message: string } }).error.message).toMatch(/\(global\)/);
    // B's refused request was given back to B: only the global budget is spent.
    expect((await get(app, 'b')).status).toBe(429);
  });

  it('rebuilds the limiters when the limits change', async () => {
    let limits: Limits = { perClient: { requests: 1, perSeconds: 60 } };
    const app = appWith(() => limits);
    expect((await get(app)).status).toBe(200);
    expect((await get(app)).status).toBe(429);
    // The same limits in a new object: nothing changes.
    limits = { perClient: { requests: 1, perSeconds: 60 } };
    expect((await get(app)).status).toBe(429);
    // Nor does a change to the in-flight caps beside them (ADR 022).
    limits = { perClient: { requests: 1, perSeconds: 60 }, inFlight: { perUpstream: 8 } } as Limits;
    expect((await get(app)).status).toBe(429);
    limits = { perClient: { requests: 3, perSeconds: 60 } };
    expect((await get(app)).status).toBe(200);
    limits = {};
    for (let i = 0; i < 5; i++) expect((await get(app)).status).toBe(200);
  });

  it('takes fractional seconds as a window in milliseconds', async () => {
    const app = appWith(() => ({ perClient: { requests: 1, perSeconds: 0.05 } }));
    expect((await get(app)).status).toBe(200);
    const over = await get(app);
    expect(over.status).toBe(429);
    expect(over.headers.get('retry-after')).toBe('1');
    await waitFor(async () => (await get(app)).status === 200, { timeoutMs: 2_000, what: 'the 50 ms window to pass' });
  });
});

describe('rate-limit helpers', () => {
  it('keys callers', () => {
    expect(rateLimitKey({ kind: 'admin' })).toBe('admin');
    expect(rateLimitKey({ kind: 'client', tokenId: 'x', name: 'n' })).toBe('token:x');
    expect(rateLimitKey({ kind: 'bot', slug: 's', tokenId: 'y' })).toBe('token:y');
  });

  it('rounds Retry-After up to whole seconds, at least 1', () => {
    expect(retryAfterSeconds(0)).toBe(1);
    expect(retryAfterSeconds(1)).toBe(1);
    expect(retryAfterSeconds(1001)).toBe(2);
    expect(retryAfterSeconds(60_000)).toBe(60);
  });

  it('finds the id of a single JSON-RPC request only', () => {
    expect(jsonRpcRequestId('{"jsonrpc":"2.0","id":3,"method":"x"}')).toBe(3);
    expect(jsonRpcRequestId('{"jsonrpc":"2.0","method":"notifications/x"}')).toBeNull();
    expect(jsonRpcRequestId('[{"jsonrpc":"2.0","id":3,"method":"x"}]')).toBeNull();
    expect(jsonRpcRequestId('{"jsonrpc":"2.0","id":3,"result":{}}')).toBeNull();
    expect(jsonRpcRequestId('not json')).toBeNull();
  });
});
