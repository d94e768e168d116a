/**
 * Issue 18 item 5: a route whose body is optional accepts an empty one, even sent with
 * `Content-Type: application/json` (as clients and `curl -H` do); a route whose body is
 * required still refuses it in one line.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TINY_SERVER } from '../support/fixtures.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { waitFor } from '../support/wait-for.js';

describe('empty request bodies on /api', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({ mcpServers: { tiny: { command: process.execPath, args: [TINY_SERVER] } } });
    await waitFor(async () => (await svc.server('tiny'))?.state === 'connected', { what: 'tiny connected' });
  }, 30_000);
  afterAll(() => svc?.stop());

  const post = (path: string, init: { json?: boolean; length?: boolean } = {}) =>
    svc.api<{ error?: { code: string; message: string } }>(path, {
      method: 'POST',
      headers: {
        ...(init.json === false ? {} : { 'content-type': 'application/json' }),
        ...(init.length === false ? {} : { 'content-length': '0' }),
      },
    });

  it('approve with an empty JSON body answers as without a body', async () => {
    const withType = await post('/api/servers/tiny/tools/echo/approve');
    const without = await post('/api/servers/tiny/tools/echo/approve', { json: false });
    // echo is not quarantined: the same 404, not "request body is not valid JSON".
    expect(withType).toEqual(without);
    expect(withType.status).toBe(404);
    expect(withType.body.error?.code).toBe('not_found');
  });

  it('a route without a body takes an empty JSON body too', async () => {
    const reset = await post('/api/servers/tiny/sampling/reset');
    expect(reset.status).toBe(200);
  });

  it('a route whose body is required still refuses an empty one, in one line', async () => {
    const added = await post('/api/servers');
    expect(added.status).toBe(400);
    expect(added.body.error?.message).not.toContain('\n');
    expect((await svc.servers()).map((s) => s.name)).toEqual(['tiny']);
  });
});
