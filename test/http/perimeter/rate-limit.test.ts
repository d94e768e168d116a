/**
 * The rate limits (SPEC X3) as the perimeter applies them (`admit-request.ts`), on a small app
 * whose tokens name their client. The JSON-RPC form of the answer on `/mcp` is tested with the
 * endpoints (admit-request.test.ts).
 */
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { AppConfig } from '../../../src/config/schema.js';
import type { Caller } from '../../../src/guard/caller.js';
import { createPerimeter } from '../../../src/http/perimeter/admit-request.js';
import {
  createRateLimiter,
  rateLimitKey,
  requestIdOf,
  retryAfterSeconds,
} from '../../../src/http/perimeter/rate-limit.js';
import { requireToken } from '../../../src/http/perimeter/require-token.js';
import { waitFor } from '../../support/wait-for.js';

type Limits = Pick<AppConfig['limits'], 'perClient' | 'global'>;

function appWith(limits: () => Limits) {
  const app = new Hono();
  const perimeter = createPerimeter({
    verify: (token): Caller =>
      token === 'admin' ? { kind: 'admin' } : { kind: 'client', tokenId: token, name: token },
    limiter: createRateLimiter({ limits }),
    policy: () => ({ allowedHosts: [], allowedOrigins: [] }),
  });
  app.use('/api/*', requireToken({ perimeter, rule: { forbid: () => null, limited: true, maxBodyBytes: null } }));
  app.get('/api/x', (c) => c.json({ ok: true }));
  return app;
}

const get = (app: Hono, who = 'admin') => app.request('/api/x', { headers: { authorization: `Bearer ${who}` } });

describe('the rate limits at the perimeter', () => {
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
    expect(requestIdOf({ jsonrpc: '2.0', id: 3, method: 'x' })).toBe(3);
    expect(requestIdOf({ jsonrpc: '2.0', method: 'notifications/x' })).toBeNull();
    expect(requestIdOf([{ jsonrpc: '2.0', id: 3, method: 'x' }])).toBeNull();
    expect(requestIdOf({ jsonrpc: '2.0', id: 3, result: {} })).toBeNull();
    expect(requestIdOf('not json')).toBeNull();
  });
});
