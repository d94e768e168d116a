import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RemoteServerConfig } from '../../src/config/schema.js';
import { connectUpstream } from '../../src/upstream/connect-upstream.js';
import type { LiveUpstream } from '../../src/upstream/types.js';
import { testLogger } from '../support/fixtures.js';
import { freePort } from '../support/free-port.js';
import { remoteConfig } from '../support/server-config.js';
import { type EverythingHttp, startEverythingHttp } from '../support/start-everything-http.js';

const log = testLogger();
const opened: LiveUpstream[] = [];

async function connect(config: RemoteServerConfig) {
  const upstream = await connectUpstream({ serverId: 'remote', config, log, graceMs: 1_000 });
  opened.push(upstream);
  return upstream;
}

/** An HTTP server that records each request and answers every POST 405 and every GET 404. */
async function startRecorder() {
  const seen: { method: string; headers: IncomingHttpHeaders }[] = [];
  const server: Server = createServer((req, res) => {
    seen.push({ method: req.method ?? '', headers: req.headers });
    req.resume();
    res.writeHead(req.method === 'POST' ? 405 : 404, { 'content-type': 'text/plain' }).end('no MCP here');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  return { url, seen, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('connectUpstream over HTTP', () => {
  let streamable: EverythingHttp;
  let sse: EverythingHttp;
  beforeAll(async () => {
    [streamable, sse] = await Promise.all([startEverythingHttp(), startEverythingHttp({ transport: 'sse' })]);
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((u) => u.close()));
  });
  afterAll(async () => {
    await Promise.all([streamable?.stop(), sse?.stop()]);
  });

  it('speaks Streamable HTTP with custom headers', async () => {
    const upstream = await connect(
      remoteConfig({ type: 'http', url: streamable.url, headers: { 'X-Boternity-Test': 'yes' } }),
    );
    expect(upstream.transport).toBe('http');
    expect(upstream.pid).toBeNull();
    expect(upstream.counts.toolCount).toBeGreaterThan(0);
    expect(upstream.counts.promptCount).toBeGreaterThan(0);
    expect(await upstream.ping(5_000)).toBeGreaterThanOrEqual(0);
    await upstream.close();
    expect(await upstream.closed).toEqual({ error: null });
  });

  it('refuses a request over maxMessageBytes unsent with one line, and sends one within it', async () => {
    const upstream = await connect(remoteConfig({ type: 'http', url: streamable.url, maxMessageBytes: 2_000 }));
    await expect(upstream.callTool({ name: 'echo', arguments: { message: 'x'.repeat(3_000) } })).rejects.toThrow(
      /^the request is \d+ bytes, over the 2000 bytes server "remote" takes \(maxMessageBytes\); it was not sent$/,
    );
    expect(await upstream.callTool({ name: 'echo', arguments: { message: 'fine' } })).toMatchObject({
      content: [{ type: 'text', text: expect.stringContaining('fine') }],
    });
  });

  it('speaks legacy SSE when configured with type sse', async () => {
    const upstream = await connect(remoteConfig({ type: 'sse', url: sse.url }));
    expect(upstream.transport).toBe('sse');
    expect(upstream.counts.toolCount).toBeGreaterThan(0);
    expect(await upstream.ping(5_000)).toBeGreaterThanOrEqual(0);
  });

  it('auto uses Streamable HTTP when the server speaks it', async () => {
    const upstream = await connect(remoteConfig({ url: streamable.url }));
    expect(upstream.transport).toBe('http');
  });

  it('auto falls back to SSE when the Streamable HTTP POST gets a 4xx', async () => {
    const upstream = await connect(remoteConfig({ type: 'auto', url: sse.url }));
    expect(upstream.transport).toBe('sse');
    expect(upstream.counts.toolCount).toBeGreaterThan(0);
  });

  it('connects again after the server is restarted on the same port', async () => {
    const first = await connect(remoteConfig({ type: 'http', url: streamable.url }));
    const firstPid = streamable.pid;
    await streamable.stop();
    await expect(first.ping(2_000)).rejects.toThrow();
    await expect(connect(remoteConfig({ type: 'http', url: streamable.url }))).rejects.toThrow(/ECONNREFUSED/);
    await streamable.restart();
    expect(streamable.pid).not.toBe(firstPid);
    const again = await connect(remoteConfig({ type: 'http', url: streamable.url }));
    expect(again.counts.toolCount).toBeGreaterThan(0);
  });
});

describe('connectUpstream HTTP failures', () => {
  it('sends the configured headers on both attempts and reports each failure', async () => {
    const recorder = await startRecorder();
    try {
      const headers = { Authorization: 'Bearer s3cret', 'X-Custom': 'value' };
      await expect(connect(remoteConfig({ type: 'auto', url: recorder.url, headers }))).rejects.toThrow(
        `HTTP 405 from ${recorder.url} (Streamable HTTP); SSE fallback: HTTP 404 from ${recorder.url}`,
      );
      expect(recorder.seen.map((r) => r.method)).toEqual(['POST', 'GET']);
      for (const { headers: got } of recorder.seen) {
        expect(got.authorization).toBe('Bearer s3cret');
        expect(got['x-custom']).toBe('value');
      }
    } finally {
      await recorder.close();
    }
  });

  it('does not fall back when the transport is http', async () => {
    const recorder = await startRecorder();
    try {
      await expect(connect(remoteConfig({ type: 'http', url: recorder.url }))).rejects.toThrow(
        `HTTP 405 from ${recorder.url}`,
      );
      expect(recorder.seen.map((r) => r.method)).toEqual(['POST']);
    } finally {
      await recorder.close();
    }
  });

  it("masks a URL's password and secret query values in what a failure says", async () => {
    const recorder = await startRecorder();
    try {
      const url = new URL(recorder.url);
      url.searchParams.set('api_key', 'sk-live-123456');
      url.searchParams.set('team', 'blue');
      const error = await connect(remoteConfig({ type: 'http', url: url.toString() })).then(
        () => new Error('connected'),
        (e: unknown) => e as Error,
      );
      expect(error.message).toMatch(/^HTTP 405 from http:\/\/127\.0\.0\.1:\d+\/mcp\?api_key=\*+&team=blue$/);
      // fetch refuses a URL with a user and password, quoting it: the quote is masked too.
      url.username = 'me';
      url.password = 'hunter2-pass';
      const refused = await connect(remoteConfig({ type: 'http', url: url.toString() })).then(
        () => new Error('connected'),
        (e: unknown) => e as Error,
      );
      expect(refused.message).toMatch(/includes credentials: http:\/\/me:\*+@127\.0\.0\.1/);
      for (const secret of ['hunter2-pass', 'sk-live-123456']) expect(refused.message).not.toContain(secret);
    } finally {
      await recorder.close();
    }
    const closed = new URL(`http://127.0.0.1:${await freePort()}/mcp?token=tok-abcdef`);
    const unreachable = await connect(remoteConfig({ type: 'http', url: closed.toString() })).then(
      () => new Error('connected'),
      (e: unknown) => e as Error,
    );
    expect(unreachable.message).toMatch(/^connect ECONNREFUSED .*\?token=\*+\)$/);
  });

  it('rejects an unreachable URL without trying SSE', async () => {
    const url = `http://127.0.0.1:${await freePort()}/mcp`;
    const error = await connect(remoteConfig({ type: 'auto', url })).then(
      () => new Error('connected to a closed port'),
      (e: unknown) => e as Error,
    );
    expect(error.message).toMatch(/^connect ECONNREFUSED/);
    expect(error.message).toContain(url);
    expect(error.message).not.toMatch(/SSE/);
  });

  it('reports an unreachable legacy SSE URL the same way', async () => {
    const url = `http://127.0.0.1:${await freePort()}/sse`;
    const error = await connect(remoteConfig({ type: 'sse', url })).then(
      () => new Error('connected to a closed port'),
      (e: unknown) => e as Error,
    );
    expect(error.message).toMatch(/^connect ECONNREFUSED 127\.0\.0\.1:\d+ /);
    expect(error.message.endsWith(`(${url})`)).toBe(true);
  });
});
