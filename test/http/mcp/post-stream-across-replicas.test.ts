/**
 * A POST's stream resumed on another replica while its request is still served (SPEC K3
 * "resumption", ADR 039 §5): a call whose upstream asks the agent for sampling streams the
 * request on its POST; the client loses that stream, comes back with `Last-Event-ID` through
 * the other replica, and answers the sampling request there; the replica it came back to
 * follows the first one's stream (what it keeps in `stream_events`) and hands the client the
 * call's answer, then ends. Before, the `GET` was refused with a 503 until a retry reached
 * the replica serving the call.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPLICA_TOKEN, type SealedCluster, startSealedCluster } from '../../support/sealed-replicas.js';

let cluster: SealedCluster;
beforeAll(async () => {
  cluster = await startSealedCluster(2);
}, 90_000);
afterAll(async () => {
  await cluster?.stop();
});

const base = {
  authorization: `Bearer ${REPLICA_TOKEN}`,
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
};

/** A session opened by hand on `url`, with sampling among its capabilities. */
async function openSession(url: string): Promise<string> {
  const opened = await fetch(`${url}/mcp`, {
    method: 'POST',
    headers: base,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: { sampling: {} },
        clientInfo: { name: 'post-stream', version: '1.0.0' },
      },
    }),
  });
  await opened.text();
  const id = opened.headers.get('mcp-session-id') as string;
  const initialized = await fetch(`${url}/mcp`, {
    method: 'POST',
    headers: { ...base, 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  expect(initialized.status).toBe(202);
  return id;
}

/** Read a POST's SSE answer until an event's data matches `wanted`; then the client "loses" it. */
async function readUntil(response: Response, wanted: (data: Record<string, unknown>) => boolean) {
  const reader = (response.body as ReadableStream<Uint8Array>).pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`the stream ended before the event: ${text}`);
    text += value;
    for (const block of text.split('\n\n').slice(0, -1)) {
      const id = /^id: (.+)$/m.exec(block)?.[1];
      const data = /^data: (.+)$/m.exec(block)?.[1];
      if (!id || !data) continue;
      const parsed = JSON.parse(data) as Record<string, unknown>;
      if (wanted(parsed)) {
        await reader.cancel();
        return { id, data: parsed };
      }
    }
  }
}

describe("a POST's stream resumed on another replica", () => {
  it("follows the serving replica's stream to the call's answer, the sampling answered through the other", async () => {
    const [zero, one] = cluster.replicas.map((r) => r.url) as [string, string];
    const session = await openSession(zero);
    const headers = { ...base, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
    const call = await fetch(`${zero}/mcp`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 'up__ask', arguments: { text: 'may I?' } },
      }),
    });
    expect(call.headers.get('content-type')).toContain('text/event-stream');
    // The upstream's sampling request, on the call's stream; then the client's connection drops.
    const asked = await readUntil(call, (data) => data.method === 'sampling/createMessage');
    expect(asked.id).toMatch(/^[0-9a-f]{10}p\d+$/);

    // Back through the other replica: it follows zero's stream.
    const resumed = await fetch(`${one}/mcp`, {
      headers: {
        authorization: base.authorization,
        accept: 'text/event-stream',
        'mcp-session-id': session,
        'mcp-protocol-version': '2025-11-25',
        'last-event-id': asked.id,
      },
    });
    expect(resumed.status).toBe(200);
    expect(resumed.headers.get('content-type')).toContain('text/event-stream');
    // The sampling answer goes to `one` too; the relay takes it to zero, whose upstream waits for it.
    const answered = await fetch(`${one}/mcp`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: asked.data.id,
        result: { role: 'assistant', content: { type: 'text', text: 'yes' }, model: 'test' },
      }),
    });
    expect(answered.status).toBe(202);
    // The followed stream hands over the call's answer and ends (the whole body is read).
    const events = [...(await resumed.text()).matchAll(/^id: (.+)\ndata: (.+)$/gm)].map((m) => ({
      id: m[1] as string,
      data: JSON.parse(m[2] as string) as Record<string, unknown>,
    }));
    expect(events).toHaveLength(1);
    expect(events[0]?.data).toMatchObject({ id: 7, result: { content: [{ type: 'text', text: 'sampled: yes' }] } });
    // zero's event, in zero's numbering: the stream followed, not a new one.
    expect(events[0]?.id.slice(0, 10)).toBe(asked.id.slice(0, 10));
    await fetch(`${zero}/mcp`, { method: 'DELETE', headers });
  }, 60_000);
});
