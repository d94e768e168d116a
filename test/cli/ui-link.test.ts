/**
 * `bnity ui` (SPEC A3): a new one-time sign-in link from the running service, for when the
 * link `bnity serve` printed was used, lost or expired (links are good once, for an hour).
 * The link signs a browser in once (an HttpOnly cookie); the route wants the admin token;
 * with no service running the command says so in one line.
 */
import { describe, expect, it } from 'vitest';
import { noServiceEnv } from '../support/no-service.js';
import { runBnity } from '../support/serve-process.js';
import { startTestService, TEST_TOKEN } from '../support/test-service.js';

describe('bnity ui', () => {
  it('prints a new link that signs in once, within the hour it says; the route wants the admin token', async () => {
    const { env } = await noServiceEnv();
    const svc = await startTestService({ mcpServers: {} });
    try {
      const withToken = { ...env, BOTERNITY_ADMIN_TOKEN: TEST_TOKEN };
      const printed = await runBnity(['ui', '--home', svc.home], withToken);
      expect(printed.stderr).toBe('');
      expect(printed.code).toBe(0);
      const [url, note] = printed.stdout.trim().split('\n');
      expect(url).toMatch(new RegExp(`^${svc.service.url}/ui/sign-in\\?code=[\\w-]{43}$`));
      const until = /until (\S+);/.exec(note ?? '')?.[1] as string;
      const lasts = Date.parse(until) - Date.now();
      expect(lasts).toBeGreaterThan(59 * 60 * 1000);
      expect(lasts).toBeLessThanOrEqual(60 * 60 * 1000);
      // The link signs in once: a session cookie and the app; again, the page that says it was refused.
      const first = await fetch(url as string, { redirect: 'manual' });
      expect(first.status).toBe(303);
      expect(first.headers.get('location')).toBe('/');
      expect(first.headers.get('set-cookie')).toMatch(/HttpOnly/i);
      const again = await fetch(url as string, { redirect: 'manual' });
      expect(again.headers.get('location')).toBe('/#/sign-in/link-refused');
      // --json for scripts; each call a new link.
      const json = await runBnity(['ui', '--json', '--home', svc.home], withToken);
      const link = JSON.parse(json.stdout) as { url: string; expiresAt: string };
      expect(link.url).not.toBe(url);
      expect(new Date(link.expiresAt).toISOString()).toBe(link.expiresAt);
      // Not without the admin token.
      const refused = await fetch(`${svc.service.url}/ui/sign-in-link`, { method: 'POST' });
      expect(refused.status).toBe(401);
      expect(await refused.json()).toEqual({
        error: { code: 'unauthorized', message: 'a new sign-in link needs the admin token' },
      });
    } finally {
      await svc.stop();
    }
  });

  it('says in one line that no service is running', async () => {
    const { env, url } = await noServiceEnv();
    const result = await runBnity(['ui', '--url', url], { ...env, BOTERNITY_ADMIN_TOKEN: TEST_TOKEN });
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/^bnity: /);
  });
});
