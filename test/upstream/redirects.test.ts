/**
 * Redirects of remote upstreams (X8): a redirect to another origin is never followed, so the
 * JSON-RPC body and the config's `headers` never reach another host; the connection fails
 * with one line naming the target. Real HTTP on 127.0.0.1 (another port is another origin).
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBoundedFetch } from '../../src/upstream/bounded-fetch.js';
import { connectUpstream } from '../../src/upstream/connect-upstream.js';
import { testLogger } from '../support/fixtures.js';
import { remoteConfig } from '../support/server-config.js';

type Seen = { method: string; url: string; headers: IncomingHttpHeaders };

async function listen(handler: Parameters<typeof createServer>[1]): Promise<{ server: Server; url: string }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe.each(['http', 'sse'] as const)('a %s upstream redirecting to another origin', (type) => {
  const seenElsewhere: Seen[] = [];
  let other: { server: Server; url: string };
  let redirector: { server: Server; url: string };
  beforeAll(async () => {
    other = await listen((req, res) => {
      seenElsewhere.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
      req.resume();
      res.writeHead(500).end();
    });
    redirector = await listen((req, res) => {
      req.resume();
      res.writeHead(307, { location: `${other.url}/mcp?token=x` }).end();
    });
  });
  afterAll(async () => {
    other.server.closeAllConnections();
    redirector.server.closeAllConnections();
    await Promise.all([other, redirector].map(({ server }) => new Promise((resolve) => server.close(resolve))));
  });

  it('is not followed: nothing reaches the other host, and the error names the target in one line', async () => {
    const config = remoteConfig({ type, url: `${redirector.url}/mcp`, headers: { 'X-Api-Key': 'secret-key' } });
    const failed = await connectUpstream({ serverId: 'moved', config, log: testLogger(), graceMs: 200 }).then(
      () => null,
      (error: unknown) => error as Error,
    );
    // Over SSE the configured url follows in parentheses, as for any failure of its stream.
    expect(failed?.message).not.toContain('\n');
    expect(failed?.message).toContain(
      `server "moved" redirected to ${other.url}/mcp, another origin: not followed (the request's body and the config's headers would go there); if the server moved, set its url to the new address`,
    );
    expect(seenElsewhere).toEqual([]);
  });
});

describe('the bounded fetch and redirects', () => {
  const seen: Seen[] = [];
  let site: { server: Server; url: string };
  let elsewhere: { server: Server; url: string };
  beforeAll(async () => {
    elsewhere = await listen((req, res) => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
      res.writeHead(200).end('elsewhere');
    });
    site = await listen((req, res) => {
      if (req.url === '/old') res.writeHead(308, { location: '/new' }).end();
      else if (req.url === '/away') res.writeHead(307, { location: `${elsewhere.url}/x` }).end();
      else res.writeHead(200).end(`here ${req.method}`);
    });
  });
  afterAll(async () => {
    site.server.closeAllConnections();
    elsewhere.server.closeAllConnections();
    await Promise.all([site, elsewhere].map(({ server }) => new Promise((resolve) => server.close(resolve))));
  });
  const bounded = createBoundedFetch({
    maxBytes: 1024,
    tooLarge: () => new Error('too large'),
    owner: () => undefined,
    redirected: (target) => new Error(`refused ${target}`),
  });

  it('follows a redirect within the origin, keeping a POST and its body on 307/308', async () => {
    const answer = await bounded(`${site.url}/old`, { method: 'POST', body: '{}' });
    expect([answer.status, await answer.text()]).toEqual([200, 'here POST']);
  });

  it("hands a GET's redirect to another origin back unfollowed (OAuth discovery moves on); nothing goes there", async () => {
    const answer = await bounded(`${site.url}/away`, { headers: { 'x-api-key': 'k' } });
    expect(answer.status).toBe(307);
    expect(seen).toEqual([]);
  });

  it('fails an event stream or a POST redirected to another origin, naming the target', async () => {
    await expect(bounded(`${site.url}/away`, { headers: { accept: 'text/event-stream' } })).rejects.toThrow(
      `refused ${elsewhere.url}/x`,
    );
    await expect(bounded(`${site.url}/away`, { method: 'POST', body: '{}', redirect: 'manual' })).rejects.toThrow(
      `refused ${elsewhere.url}/x`,
    );
    expect(seen).toEqual([]);
  });
});
