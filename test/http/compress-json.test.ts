/**
 * The API's JSON answers compressed over real HTTP on a real service (issue 19, assets): a
 * client that accepts br or gzip gets `/api/presets`, `/api/servers` and the OpenAPI document
 * compressed, and they decode to the very JSON a client that does not gets; a small answer
 * is left as it is; the event stream is never compressed (it would wait for the compressor's
 * buffer), and neither is `/mcp`. Raw `node:http` requests: `fetch` would decode silently.
 */
import { type IncomingHttpHeaders, request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TINY_SERVER } from '../support/fixtures.js';
import { startTestService, TEST_TOKEN, type TestService } from '../support/test-service.js';
import { waitFor } from '../support/wait-for.js';

type Raw = { status: number; headers: IncomingHttpHeaders; body: Buffer };

describe('compressed JSON answers', () => {
  let svc: TestService;

  /** GET `path` and its bytes as they came over the wire (or its first chunk, for a stream). */
  const get = (path: string, headers: Record<string, string> = {}, { firstChunk = false } = {}) =>
    new Promise<Raw>((resolve, reject) => {
      const req = request(
        `${svc.service.url}${path}`,
        { headers: { authorization: `Bearer ${TEST_TOKEN}`, ...headers } },
        (res) => {
          const chunks: Buffer[] = [];
          const done = () =>
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) });
          res.on('data', (chunk: Buffer) => {
            chunks.push(chunk);
            if (firstChunk) {
              done();
              req.destroy();
            }
          });
          res.on('end', done);
        },
      );
      req.on('error', (error) => (firstChunk ? undefined : reject(error)));
      req.end();
    });
  const decode = (raw: Raw): unknown => {
    const coding = raw.headers['content-encoding'];
    const text = coding === 'br' ? brotliDecompressSync(raw.body) : coding === 'gzip' ? gunzipSync(raw.body) : raw.body;
    return JSON.parse(text.toString('utf8'));
  };

  beforeAll(async () => {
    // Two servers: /api/servers is then over the threshold (about 1 KB for one).
    const tiny = { command: process.execPath, args: [TINY_SERVER] };
    svc = await startTestService({ mcpServers: { tiny, other: tiny } });
    await waitFor(async () => (await svc.servers()).every((s) => s.state === 'connected'), {
      what: 'both servers connected',
    });
  });
  afterAll(() => svc?.stop());

  it('/api/presets, /api/servers and /api/openapi.json: brotli or gzip when asked, the same JSON decoded', async () => {
    for (const path of ['/api/presets', '/api/servers', '/api/openapi.json']) {
      const plain = await get(path);
      expect(plain.status, path).toBe(200);
      expect(plain.headers['content-encoding'], path).toBeUndefined();
      expect(plain.headers.vary, path).toMatch(/accept-encoding/i);
      expect(plain.body.byteLength, path).toBeGreaterThan(1024);
      const json = JSON.parse(plain.body.toString('utf8'));
      for (const [accept, coding] of [
        ['gzip, deflate, br, zstd', 'br'],
        ['gzip', 'gzip'],
        ['br;q=0.5, gzip', 'gzip'],
        ['*', 'br'],
      ] as const) {
        const packed = await get(path, { 'accept-encoding': accept });
        expect(packed.status, `${path} ${accept}`).toBe(200);
        expect(packed.headers['content-encoding'], `${path} ${accept}`).toBe(coding);
        expect(packed.headers['content-type'], path).toMatch(/^application\/json/);
        expect(packed.headers.vary, path).toMatch(/accept-encoding/i);
        expect(packed.body.byteLength, `${path} ${accept}`).toBeLessThan(plain.body.byteLength / 2);
        expect(decode(packed), `${path} ${accept}`).toEqual(json);
      }
    }
    const presets = { plain: (await get('/api/presets')).body.byteLength };
    const br = (await get('/api/presets', { 'accept-encoding': 'br' })).body.byteLength;
    console.log(`/api/presets: ${presets.plain} B plain, ${br} B brotli`);
  });

  it('leaves alone a small answer, a client that takes no coding, and an error', async () => {
    const small = await get('/api/servers/tiny/stderr', { 'accept-encoding': 'gzip, br' });
    expect(small.status).toBe(200);
    expect(small.body.byteLength).toBeLessThan(1024);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(decode(small)).toBeTypeOf('object');
    for (const accept of ['identity', 'deflate', 'gzip;q=0, br;q=0']) {
      const none = await get('/api/presets', { 'accept-encoding': accept });
      expect(none.headers['content-encoding'], accept).toBeUndefined();
      expect(decode(none), accept).toEqual(decode(await get('/api/presets')));
    }
    const refused = await get('/api/presets', { 'accept-encoding': 'br', authorization: 'Bearer nope' });
    expect(refused.status).toBe(401);
    expect(decode(refused)).toEqual({ error: { code: 'unauthorized', message: 'invalid bearer token' } });
  });

  it('/api/events and /mcp are never compressed: the stream arrives as written', async () => {
    const events = await get(
      '/api/events',
      { 'accept-encoding': 'gzip, deflate, br', accept: 'text/event-stream' },
      { firstChunk: true },
    );
    expect(events.status).toBe(200);
    expect(events.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(events.headers['content-encoding']).toBeUndefined();
    expect(events.body.toString('utf8')).toMatch(/^(?:: .*\n\n)?(?:id: .*\n)?event: snapshot\n/);
    const mcp = await new Promise<Raw>((resolve, reject) => {
      const req = request(
        `${svc.service.url}/mcp`,
        {
          method: 'POST',
          headers: {
            authorization: `Bearer ${TEST_TOKEN}`,
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'accept-encoding': 'gzip, br',
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
          );
        },
      );
      req.on('error', reject);
      req.end(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
        }),
      );
    });
    expect(mcp.status).toBe(200);
    expect(mcp.headers['content-encoding']).toBeUndefined();
    expect(mcp.body.toString('utf8')).toContain('"serverInfo"');
  });
});
