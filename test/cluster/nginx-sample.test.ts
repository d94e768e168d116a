import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { parseConfigText } from '../../src/config/load-config.js';

/**
 * nginx is not installable from npm, so the sample of docs/cluster.md cannot run here; this
 * keeps it saying what the cluster relies on (the behaviour itself is tested through the
 * test balancer, test/support/round-robin-proxy.ts).
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
