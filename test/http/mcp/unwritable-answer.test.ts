/**
 * An answer that cannot be serialized (a result's `_meta` nested 20,000 levels deep) is
 * answered `-32603` for its id, in one line; before, `send` threw, the SDK only called
 * `onerror`, and the JSON response never ended: the agent hung.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchInitialize } from '../../support/initialize.js';
import { startTransportSession } from '../../support/transport-session.js';

const ACCEPT = 'application/json, text/event-stream';
const VERSION = '2025-11-25';

describe('an answer that cannot be written', () => {
  let s: Awaited<ReturnType<typeof startTransportSession>>;
  let sessionId: string;
  const post = (body: unknown) =>
    fetch(s.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: ACCEPT,
        'mcp-session-id': sessionId,
        'mcp-protocol-version': VERSION,
      },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(5_000),
    });

  beforeAll(async () => {
    s = await startTransportSession();
    const init = await fetchInitialize(s.url, VERSION);
    sessionId = init.headers.get('mcp-session-id') as string;
    await post({ jsonrpc: '2.0', method: 'notifications/initialized' });
  });
  afterAll(() => s?.close());

  it('answers -32603 for its id, and the session goes on', async () => {
    const res = await post({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'deep', arguments: {} } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { id: number; error: { code: number; message: string } };
    expect(body.id).toBe(7);
    expect(body.error.code).toBe(-32603);
    expect(body.error.message).toMatch(/^the answer could not be written: /);
    expect(body.error.message).not.toContain('\n');
    const next = await post({
      jsonrpc: '2.0',
      id: 8,
      method: 'tools/call',
      params: { name: 'echo', arguments: { text: 'still here' } },
    });
    expect(((await next.json()) as { result: { content: { text: string }[] } }).result.content[0]?.text).toBe(
      'still here',
    );
  });
});
