/**
 * The test balancer itself (issue 22's cluster tests rely on it): each request to the next
 * replica in turn, a refusing replica skipped, an SSE answer streamed as it comes, and a 502
 * when no replica answers.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startRoundRobinProxy } from './round-robin-proxy.js';

const servers: Server[] = [];
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
});

/** A replica that answers with its name and the body it got; `/events` streams two SSE events. */
async function replica(name: string): Promise<string> {
  const server = createServer((req, res) => {
    if (req.url === '/events') {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(`data: ${name} 1\n\n`);
      setImmediate(() => res.end(`data: ${name} 2\n\n`));
      return;
    }
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => res.writeHead(200, { 'x-replica': name }).end(`${name}:${body}`));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A base URL nothing listens on. */
async function refusing(): Promise<string> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  server.close();
  await once(server, 'close');
  return url;
}

describe('startRoundRobinProxy', () => {
  it('sends each request to the next replica in turn, bodies and headers through', async () => {
    const proxy = await startRoundRobinProxy([await replica('a'), await replica('b'), await replica('c')]);
    closers.push(proxy.close);
    const answers: string[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await fetch(proxy.url, { method: 'POST', body: `n${i}` });
      answers.push(`${res.headers.get('x-replica')} ${await res.text()}`);
    }
    expect(answers).toEqual(['a a:n0', 'b b:n1', 'c c:n2', 'a a:n3', 'b b:n4', 'c c:n5']);
  });

  it('skips a replica that refuses the connection, and answers 502 when none does', async () => {
    const down = await refusing();
    const proxy = await startRoundRobinProxy([down, await replica('b')]);
    closers.push(proxy.close);
    for (let i = 0; i < 4; i++)
      expect(await (await fetch(proxy.url, { method: 'POST', body: 'x' })).text()).toBe('b:x');
    expect(proxy.failures()).toBe(0);
    const none = await startRoundRobinProxy([down, await refusing()]);
    closers.push(none.close);
    const res = await fetch(none.url);
    expect(res.status).toBe(502);
    expect(none.failures()).toBe(1);
  });

  it('streams an SSE answer as the replica writes it', async () => {
    const proxy = await startRoundRobinProxy([await replica('a')]);
    closers.push(proxy.close);
    const res = await fetch(`${proxy.url}/events`);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    expect(await res.text()).toBe('data: a 1\n\ndata: a 2\n\n');
  });
});
