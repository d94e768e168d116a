import { randomBytes } from 'node:crypto';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { REDACT_PATHS } from '../../src/log/create-logger.js';
import { openKeystore } from '../../src/storage/keystore.js';
import { connectUpstream } from '../../src/upstream/connect-upstream.js';
import { remoteConfig } from '../support/server-config.js';
import { useTempDirs } from '../support/temp-dir.js';

const tempDir = useTempDirs('bnity-keystore-');
const SECRET = 'sk-very-secret-value-1234567890';
const noEnv = {} as NodeJS.ProcessEnv;

describe('keystore', () => {
  it('round-trips secrets through a 0600 encrypted file and a generated 0600 key file', async () => {
    const home = await tempDir();
    const ks = await openKeystore({ home, env: noEnv });
    expect(await ks.get('github')).toBeNull();
    expect(await ks.names()).toEqual([]);
    await ks.set('github', SECRET);
    await ks.set('a.b-c_d', 'other');
    expect(await ks.get('github')).toBe(SECRET);
    // A fresh instance reads the same files.
    const again = await openKeystore({ home, env: noEnv });
    expect(await again.get('github')).toBe(SECRET);
    expect(await again.names()).toEqual(['a.b-c_d', 'github']);
    expect((await stat(join(home, 'keystore.enc'))).mode & 0o777).toBe(0o600);
    expect((await stat(join(home, 'keystore.key'))).mode & 0o777).toBe(0o600);
    expect((await readFile(join(home, 'keystore.key'))).length).toBe(32);
    const text = await readFile(join(home, 'keystore.enc'), 'utf8');
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain(Buffer.from(SECRET).toString('base64'));
    const file = JSON.parse(text);
    expect(file.version).toBe(1);
    expect(Object.keys(file.entries).sort()).toEqual(['a.b-c_d', 'github']);
    expect(Buffer.from(file.entries.github.iv, 'base64')).toHaveLength(12);
    expect(await again.remove('github')).toBe(true);
    expect(await again.remove('github')).toBe(false);
    expect(await ks.get('github')).toBeNull();
    expect(await ks.names()).toEqual(['a.b-c_d']);
  });

  it('uses a fresh IV per write', async () => {
    const home = await tempDir();
    const ks = await openKeystore({ home, env: noEnv });
    await ks.set('x', SECRET);
    const first = JSON.parse(await readFile(ks.path, 'utf8')).entries.x;
    await ks.set('x', SECRET);
    const second = JSON.parse(await readFile(ks.path, 'utf8')).entries.x;
    expect(second.iv).not.toBe(first.iv);
    expect(second.data).not.toBe(first.data);
  });

  it('takes the key from BOTERNITY_KEYSTORE_KEY (hex or base64) and writes no key file', async () => {
    const home = await tempDir();
    const key = randomBytes(32);
    const hex = { BOTERNITY_KEYSTORE_KEY: key.toString('hex') };
    const b64 = { BOTERNITY_KEYSTORE_KEY: key.toString('base64') };
    await (await openKeystore({ home, env: hex })).set('x', SECRET);
    expect(await (await openKeystore({ home, env: b64 })).get('x')).toBe(SECRET);
    await expect(stat(join(home, 'keystore.key'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('rejects a malformed BOTERNITY_KEYSTORE_KEY naming the variable', async () => {
    const home = await tempDir();
    for (const bad of ['abc', 'zz'.repeat(32), Buffer.alloc(16).toString('base64')])
      await expect(openKeystore({ home, env: { BOTERNITY_KEYSTORE_KEY: bad } })).rejects.toThrow(
        /BOTERNITY_KEYSTORE_KEY must be 64 hex characters or the base64 of 32 bytes/,
      );
  });

  it('a wrong key is a clear error, never garbage', async () => {
    const home = await tempDir();
    await (await openKeystore({ home, env: { BOTERNITY_KEYSTORE_KEY: randomBytes(32).toString('hex') } })).set(
      'x',
      SECRET,
    );
    const wrong = await openKeystore({ home, env: { BOTERNITY_KEYSTORE_KEY: randomBytes(32).toString('hex') } });
    const message = `keystore: cannot decrypt "x": wrong key (BOTERNITY_KEYSTORE_KEY or ${join(home, 'keystore.key')})`;
    await expect(wrong.get('x')).rejects.toThrow(message);
    // Nor can it add an entry under a different key to the same file.
    await expect(wrong.set('y', 'other')).rejects.toThrow(/wrong key/);
    // No key at all (the env key is gone and no key file was made) is the same error.
    await expect((await openKeystore({ home, env: noEnv })).get('x')).rejects.toThrow(message);
    // Names can still be listed.
    expect(await wrong.names()).toEqual(['x']);
  });

  it('a tampered ciphertext, tag or moved entry fails to decrypt', async () => {
    const home = await tempDir();
    const ks = await openKeystore({ home, env: noEnv });
    await ks.set('x', SECRET);
    const original = await readFile(ks.path, 'utf8');
    const file = JSON.parse(original);
    const data = Buffer.from(file.entries.x.data, 'base64');
    data[0] = (data[0] ?? 0) ^ 1;
    await writeFile(
      ks.path,
      JSON.stringify({ ...file, entries: { x: { ...file.entries.x, data: data.toString('base64') } } }),
    );
    await expect(ks.get('x')).rejects.toThrow(/cannot decrypt "x"/);
    // The name is authenticated: the same entry under another name does not open.
    await writeFile(ks.path, JSON.stringify({ version: 1, entries: { y: file.entries.x } }));
    await expect(ks.get('y')).rejects.toThrow(/cannot decrypt "y"/);
    await writeFile(ks.path, '{"version":2}');
    await expect(ks.get('x')).rejects.toThrow(/not a valid keystore file/);
  });

  it('validates names and refuses empty secrets', async () => {
    const ks = await openKeystore({ home: await tempDir(), env: noEnv });
    for (const bad of ['', 'a b', 'x/y', 'a'.repeat(65)])
      await expect(ks.get(bad)).rejects.toThrow(/invalid credential name/);
    await expect(ks.set('x', '')).rejects.toThrow(/empty secret/);
    await ks.set('a'.repeat(64), 's');
  });

  it('serializes concurrent writers: no update is lost', async () => {
    const ks = await openKeystore({ home: await tempDir(), env: noEnv });
    await Promise.all(Array.from({ length: 20 }, (_, i) => ks.set(`k${i}`, `secret-${i}`)));
    expect(await ks.names()).toHaveLength(20);
    expect(await ks.get('k7')).toBe('secret-7');
  });
});

describe('credentialKey on a remote upstream', () => {
  const servers: Server[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
  });

  async function recorder() {
    const auth: (string | undefined)[] = [];
    const server = createServer((req, res) => {
      auth.push(req.headers.authorization);
      req.resume();
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not here');
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, auth };
  }

  function capturingLogger() {
    let out = '';
    const stream = new Writable({
      write(chunk, _enc, done) {
        out += chunk;
        done();
      },
    });
    return { log: pino({ level: 'trace', redact: REDACT_PATHS }, stream), text: () => out };
  }

  it('sends Authorization: Bearer <secret> and never logs it', async () => {
    const home = await tempDir();
    const ks = await openKeystore({ home, env: noEnv });
    await ks.set('api', SECRET);
    const { url, auth } = await recorder();
    const { log, text } = capturingLogger();
    for (const type of ['http', 'sse', 'auto'] as const) {
      const config = remoteConfig({ url, type, credentialKey: 'api', connectTimeoutMs: 5_000 });
      const error = await connectUpstream({ serverId: 'r', config, log, credentials: ks }).catch((e: Error) => e);
      expect(error).toBeInstanceOf(Error);
      expect((error as Error).message).not.toContain(SECRET);
    }
    expect(auth.length).toBeGreaterThanOrEqual(3);
    expect(auth.every((a) => a === `Bearer ${SECRET}`)).toBe(true);
    expect(text()).toContain('upstream connect failed');
    expect(text()).not.toContain(SECRET);
  });

  it('keeps an Authorization header set in the config', async () => {
    const ks = await openKeystore({ home: await tempDir(), env: noEnv });
    const { url, auth } = await recorder();
    const config = remoteConfig({
      url,
      type: 'http',
      credentialKey: 'missing',
      headers: { authorization: 'Basic xyz' },
    });
    await expect(
      connectUpstream({ serverId: 'r', config, log: pino({ level: 'silent' }), credentials: ks }),
    ).rejects.toThrow(/HTTP 404/);
    expect(auth).toEqual(['Basic xyz']);
  });

  it('a missing credential fails the connect with a clear message, before any request', async () => {
    const ks = await openKeystore({ home: await tempDir(), env: noEnv });
    const { url, auth } = await recorder();
    const config = remoteConfig({ url, credentialKey: 'x' });
    await expect(
      connectUpstream({ serverId: 'r', config, log: pino({ level: 'silent' }), credentials: ks }),
    ).rejects.toThrow(`credential "x" is not in the keystore: run 'bnity mcp credential set x'`);
    expect(auth).toEqual([]);
  });

  it('a keystore that cannot decrypt fails the connect with the keystore error', async () => {
    const home = await tempDir();
    await (await openKeystore({ home, env: noEnv })).set('x', SECRET);
    const wrong = await openKeystore({ home, env: { BOTERNITY_KEYSTORE_KEY: randomBytes(32).toString('hex') } });
    const { url } = await recorder();
    const config = remoteConfig({ url, credentialKey: 'x' });
    await expect(
      connectUpstream({ serverId: 'r', config, log: pino({ level: 'silent' }), credentials: wrong }),
    ).rejects.toThrow(/cannot decrypt "x": wrong key/);
  });
});
