/**
 * C6 acceptance: a secret set in the keystore and used as the bearer of a remote server
 * reaches that server, and nowhere else: not in the output of `bnity serve` at trace level,
 * not in the database file (or its WAL) nor any other file of the home besides the
 * keystore, not in the API responses, the audit or the event stream, and not in clear in
 * the keystore file.
 */

import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openKeystore } from '../../src/storage/keystore.js';
import { connectHttpClient } from '../support/mcp-client.js';
import { type ServeProcess, spawnServe } from '../support/serve-process.js';
import { openSse } from '../support/sse-client.js';
import { waitFor } from '../support/wait-for.js';

const SECRET = 'sk-live-7f3a9c1e-acceptance-secret-5b2d';
const TOKEN = 'secrets-test-admin-token';
const auth = { authorization: `Bearer ${TOKEN}` };

/** The forms in which a leaked secret could show up. */
const FORMS = [SECRET, Buffer.from(SECRET).toString('base64'), Buffer.from(SECRET).toString('hex')];
const leaks = (text: string | Buffer): string[] => {
  const haystack = typeof text === 'string' ? text : text.toString('latin1');
  return FORMS.filter((form) => haystack.includes(form));
};

/** Every file under `dir`, recursively. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

/** The files of `home` (the keystore's own files aside) that hold the secret. */
async function leakingFiles(home: string): Promise<{ names: string[]; leaking: string[] }> {
  const names = (await filesUnder(home)).map((f) => relative(home, f));
  const leaking: string[] = [];
  for (const name of names) {
    if (name === 'keystore.enc' || name === 'keystore.key') continue;
    const bytes = await readFile(join(home, name)).catch(() => null); // a -wal/-shm may vanish
    if (bytes && leaks(bytes).length > 0) leaking.push(name);
  }
  return { names, leaking };
}

describe('a keystore secret used as a bearer', { timeout: 90_000 }, () => {
  let home: string;
  let upstream: Server;
  const received: IncomingHttpHeaders[] = [];
  let serve: ServeProcess;
  /** API responses and SSE payloads, as text, to search for the secret. */
  const seen: { what: string; text: string }[] = [];
  let keystoreText = '';

  const get = async (path: string) => {
    const response = await fetch(`${serve.url}${path}`, { headers: auth });
    const text = await response.text();
    seen.push({ what: `GET ${path} (${response.status})`, text });
    return { status: response.status, text };
  };

  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), 'bnity-secrets-'));
    const keystore = await openKeystore({ home, env: {} });
    await keystore.set('api', SECRET);
    keystoreText = await readFile(keystore.path, 'utf8');

    upstream = createServer((req, res) => {
      received.push(req.headers);
      req.resume();
      // A hostile upstream that echoes our credential back in its error body.
      res.writeHead(404, { 'content-type': 'text/plain' }).end(`not here, ${req.headers.authorization ?? 'anonymous'}`);
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const { port } = upstream.address() as AddressInfo;

    const config = join(home, 'boternity.json');
    await writeFile(
      config,
      `${JSON.stringify({ mcpServers: { remote: { url: `http://127.0.0.1:${port}/mcp`, credentialKey: 'api' } } }, null, 2)}\n`,
    );
    serve = await spawnServe(['--port', '0', '--config', config], {
      BOTERNITY_HOME: home,
      BOTERNITY_LOG_LEVEL: 'trace',
      BOTERNITY_ADMIN_TOKEN: TOKEN,
      BOTERNITY_KEYSTORE_KEY: '',
    });
  }, 60_000);

  afterAll(async () => {
    if (serve && serve.child.exitCode === null && serve.child.signalCode === null) {
      serve.child.kill('SIGKILL');
      await serve.exited;
    }
    await new Promise<void>((resolve) => (upstream ? upstream.close(() => resolve()) : resolve()));
    if (home) await rm(home, { recursive: true, force: true });
  });

  it('sends the secret to the upstream as the bearer', async () => {
    await waitFor(() => received.some((h) => h.authorization === `Bearer ${SECRET}`), {
      what: 'the upstream to receive the bearer',
      timeoutMs: 20_000,
    });
    expect(received.every((h) => h.authorization === `Bearer ${SECRET}`)).toBe(true);
  });

  it('keeps it out of the API responses, the audit and the event stream', async () => {
    const sse = await openSse(`${serve.url}/api/events?lastEventId=0`, auth);
    try {
      // The failed connect has been seen by the service: the server reports an error.
      await waitFor(
        async () => {
          const body = JSON.parse((await get('/api/servers/remote')).text) as {
            server: { state: string; lastError?: unknown };
          };
          return body.server.state !== 'connecting' && body.server.state !== 'idle';
        },
        { what: 'remote past its first connect', timeoutMs: 20_000 },
      );
      // Some MCP traffic through the gateway, so the audit has rows.
      const client = await connectHttpClient(`${serve.url}/mcp`, {}, TOKEN);
      await client.listTools();
      await client.callTool({ name: 'remote__anything', arguments: {} }).catch(() => undefined);
      await client.close();

      expect((await get('/api/servers')).status).toBe(200);
      expect((await get('/api/servers/remote')).status).toBe(200);
      await get('/api/servers/remote/tools');
      await waitFor(async () => JSON.parse((await get('/api/audit')).text).entries.length > 0, {
        what: 'audit rows',
      });
      await get('/api/audit?limit=1000');
      await get('/api/tokens');
      // Let the stream catch up with what happened since.
      await new Promise((r) => setTimeout(r, 300));
      expect(sse.events.length).toBeGreaterThan(0);
      seen.push(...sse.events.map((e, i) => ({ what: `event ${i} ${e.event}`, text: JSON.stringify(e) })));
    } finally {
      await sse.close();
    }
    const found = seen.filter((s) => leaks(s.text).length > 0).map((s) => s.what);
    expect(found).toEqual([]);
    // The database while the service runs (its WAL included).
    const running = await leakingFiles(home);
    expect(running.names).toContain('boternity.db');
    expect(running.leaking).toEqual([]);
  });

  it('keeps it out of the process output, even at trace level', async () => {
    serve.child.kill('SIGTERM');
    await serve.exited;
    const output = serve.stdout() + serve.stderr();
    // Trace output was really produced (the test would prove nothing otherwise).
    expect(output.split('\n').length).toBeGreaterThan(10);
    expect(output).toContain('remote');
    expect(leaks(output)).toEqual([]);
  });

  it('keeps it out of the database file and every other file of the home', async () => {
    const { names, leaking } = await leakingFiles(home);
    expect(names).toContain('boternity.db');
    expect(leaking).toEqual([]);
  });

  it('keeps it encrypted in the keystore file', async () => {
    expect(keystoreText).toContain('"api"');
    expect(leaks(keystoreText)).toEqual([]);
    expect(leaks(await readFile(join(home, 'keystore.enc')))).toEqual([]);
  });
});
