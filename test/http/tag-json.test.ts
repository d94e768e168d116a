/**
 * The API's JSON answers to GET carry an ETag from their bytes, and answer 304 to a client
 * that names it (issue 19: the web UI's reload asks again for `/api/presets` and gets
 * headers only), over real HTTP on a real service.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TINY_SERVER } from '../support/fixtures.js';
import { startTestService, TEST_TOKEN, type TestService } from '../support/test-service.js';
import { waitFor } from '../support/wait-for.js';

describe('ETags on JSON answers', () => {
  let svc: TestService;
  const get = (path: string, headers: Record<string, string> = {}) =>
    fetch(`${svc.service.url}${path}`, { headers: { authorization: `Bearer ${TEST_TOKEN}`, ...headers } });

  beforeAll(async () => {
    svc = await startTestService({ mcpServers: { tiny: { command: process.execPath, args: [TINY_SERVER] } } });
    await waitFor(async () => (await svc.server('tiny'))?.state === 'connected', { what: 'tiny connected' });
  });
  afterAll(() => svc?.stop());

  it('a GET answer is tagged and asked for again: 304 with no body while it is the same, 200 once it changed', async () => {
    const first = await get('/api/presets', { 'accept-encoding': 'gzip' });
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag') ?? '';
    expect(etag).toMatch(/^W\/"[\w-]{22}"$/);
    expect(first.headers.get('cache-control')).toBe('private, no-cache');
    const presets = await first.json();
    // The plain and the compressed answer are one answer: one tag.
    expect((await get('/api/presets', { 'accept-encoding': 'identity' })).headers.get('etag')).toBe(etag);
    const again = await get('/api/presets', { 'if-none-match': etag, 'accept-encoding': 'gzip, br' });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag);
    expect(again.headers.get('content-encoding')).toBeNull();
    expect(await again.text()).toBe('');
    expect(await (await get('/api/presets', { 'if-none-match': 'W/"older"' })).json()).toEqual(presets);

    // A changed answer has another tag: the old one gets the new JSON.
    const tokens = await get('/api/tokens');
    const before = tokens.headers.get('etag') ?? '';
    expect(before).toMatch(/^W\//);
    const made = await fetch(`${svc.service.url}/api/tokens`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'tagged' }),
    });
    expect(made.status).toBe(201);
    expect(made.headers.get('etag')).toBeNull();
    const after = await get('/api/tokens', { 'if-none-match': before });
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(before);
    expect(((await after.json()) as { tokens: { name: string }[] }).tokens.map((t) => t.name)).toEqual(['tagged']);
  });

  it('errors and the event stream are not tagged', async () => {
    const missing = await get('/api/servers/nothing');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('etag')).toBeNull();
    const events = await get('/api/events', { accept: 'text/event-stream' });
    expect(events.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(events.headers.get('etag')).toBeNull();
    await events.body?.cancel();
  });
});
