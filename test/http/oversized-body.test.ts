/**
 * Issue 18 item 5: an oversized POST on `/mcp` or `/api` is answered 413 so that every
 * client can read it. The connection used to close with the answer, and a socket closed
 * with unread data resets: a client still sending lost its 413 (before: 15 and 25 of 30
 * read it, the others got EPIPE). Now our side ends after the answer and the socket goes
 * a linger later, the rest of the body never read.
 */
import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LINGER_MS } from '../../src/http/io/close-after-linger.js';
import { startTestService, TEST_TOKEN, type TestService } from '../support/test-service.js';

const MiB = 1024 * 1024;

type Upload = { status: number; text: string; error: string | null };

/** POST `total` bytes at once, as clients do: what the client read, or why it read nothing. */
function upload(url: string, total: number, headers: Record<string, string>): Promise<Upload> {
  return new Promise((resolve) => {
    const req = request(url, {
      method: 'POST',
      // A client that keeps its connection (node's default since 19, fetch, curl, browsers).
      agent: new Agent({ keepAlive: true }),
      headers: { 'content-type': 'application/json', 'content-length': String(total), ...headers },
    });
    let status = 0;
    // Once the answer is read, the rest of the upload fails when the connection goes: expected.
    req.once('socket', (socket) => socket.on('error', () => undefined));
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (status === 0) resolve({ status, text: '', error: error.code ?? error.message });
    });
    req.on('response', (res) => {
      status = res.statusCode ?? 0;
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (part: string) => {
        text += part;
      });
      res.on('end', () => resolve({ status, text, error: null }));
      res.on('error', (error: NodeJS.ErrnoException) => resolve({ status, text, error: error.code ?? error.message }));
    });
    req.end(Buffer.alloc(total, 'a'));
  });
}

/** Fifteen uploads of 5, 12 and 40 MiB, one after another. */
async function fifteen(url: string, headers: Record<string, string>): Promise<Upload[]> {
  const answers: Upload[] = [];
  for (let i = 0; i < 15; i++) answers.push(await upload(url, ([5, 12, 40][i % 3] as number) * MiB, headers));
  return answers;
}

describe('an oversized POST', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({ mcpServers: {} });
  });
  afterAll(() => svc?.stop());

  it('on /mcp: every client reads the 413 and its message (15 of 15)', async () => {
    const answers = await fifteen(`${svc.service.url}/mcp`, {
      authorization: `Bearer ${TEST_TOKEN}`,
      accept: 'application/json, text/event-stream',
    });
    const message = JSON.stringify({
      jsonrpc: '2.0',
      error: { code: -32000, message: 'Payload Too Large: Request body must not exceed 4194304 bytes' },
      id: null,
    });
    expect(answers).toEqual(Array.from({ length: 15 }, () => ({ status: 413, text: message, error: null })));
  });

  it('on /api: the same, and nothing is added', async () => {
    const answers = await fifteen(`${svc.service.url}/api/servers`, { authorization: `Bearer ${TEST_TOKEN}` });
    const message = JSON.stringify({
      error: { code: 'payload_too_large', message: 'request body over 1048576 bytes (http.maxBodyBytes)' },
    });
    expect(answers).toEqual(Array.from({ length: 15 }, () => ({ status: 413, text: message, error: null })));
    expect(await svc.servers()).toEqual([]);
  });

  it('does not read the rest: a client that keeps sending has its connection closed after the linger', async () => {
    const { port } = new URL(svc.service.url);
    const raw = connect(Number(port), '127.0.0.1');
    raw.on('error', () => undefined);
    let answer = '';
    let endedAt = 0;
    raw.on('data', (part: Buffer) => {
      answer += part.toString('utf8');
    });
    // Our side ends after the answer (FIN): the client sees its end of stream.
    raw.on('end', () => {
      endedAt = performance.now();
    });
    const closed = new Promise<number>((resolve) => raw.once('close', () => resolve(performance.now())));
    const began = performance.now();
    raw.write(
      `POST /mcp HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\nauthorization: Bearer ${TEST_TOKEN}\r\ncontent-type: application/json\r\naccept: application/json, text/event-stream\r\ncontent-length: ${1024 * MiB}\r\n\r\n`,
    );
    const chunk = Buffer.alloc(MiB, 'a');
    let written = 0;
    let gone = false;
    void closed.then(() => {
      gone = true;
    });
    while (!gone && written < 1024 * MiB) {
      written += MiB;
      if (!raw.write(chunk)) await Promise.race([new Promise((resolve) => raw.once('drain', resolve)), closed]);
    }
    const closedAt = await closed;
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).toContain('Payload Too Large');
    expect(endedAt).toBeGreaterThan(0);
    // Gone about a linger after the answer, having taken in a small part of the gigabyte.
    expect(closedAt - began).toBeLessThan(LINGER_MS + 3_000);
    expect(written).toBeLessThan(256 * MiB);
  });
});
