/**
 * OAuth to an upstream across two replicas on one PostgreSQL (cluster mode, SPEC K4; ADR 037
 * amended), against the real authorization server and MCP server of test/support/oauth-servers:
 * the flow started on one replica is finished by a callback and waited on at the other; both
 * replicas connect; an access token the server dropped is refreshed once for the fleet, the
 * other replica using the new token instead of spending the refresh token again.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { authorizeThroughApi, stateOf } from '../support/oauth-flow.js';
import { approve, startOAuthPair } from '../support/oauth-servers.js';
import { createPostgresDatabase } from '../support/test-db.js';
import { startTestService, type TestService } from '../support/test-service.js';

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function twoReplicas(options: Parameters<typeof startOAuthPair>[0] = {}) {
  const pair = await startOAuthPair(options);
  cleanup.push(() => pair.close());
  const database = await createPostgresDatabase();
  cleanup.push(database.drop);
  const env = { BOTERNITY_DATABASE_URL: database.url, BOTERNITY_CLUSTER_KEY: 'oauth-replicas-cluster-key-0123456789' };
  const config = { mcpServers: { linear: { type: 'http', url: pair.mcpUrl } } };
  const replicas: TestService[] = [];
  for (const replica of ['a', 'b']) {
    const svc = await startTestService(config, { env: { ...env, BOTERNITY_REPLICA_ID: replica } });
    cleanup.push(() => svc.stop());
    replicas.push(svc);
  }
  const [a, b] = replicas as [TestService, TestService];
  await stateOf(a, 'linear', 'needs_authorization');
  await stateOf(b, 'linear', 'needs_authorization');
  return { pair, a, b };
}

const call = (svc: TestService) =>
  svc.send<{ isError?: boolean; content?: unknown }>('POST', '/api/servers/linear/tools/echo/call', { arguments: {} });

describe('OAuth across replicas', () => {
  it('a flow started on one replica is finished and waited on at the other; both connect', async () => {
    const { a, b } = await twoReplicas();
    const started = await a.send<{ url: string; state: string }>('POST', '/api/servers/linear/authorize', {});
    expect(started.status).toBe(200);
    // The CLI's wait reaches B through the balancer.
    const waited = b.api<{ server?: string }>(`/api/servers/linear/authorize/${started.body.state}`);
    const redirect = new URL(await approve(started.body.url));
    // The authorization server's redirect reaches B too.
    const atB = new URL(`${redirect.pathname}${redirect.search}`, b.service.url);
    const page = await fetch(atB);
    const text = await page.text();
    expect(page.status, text).toBe(200);
    expect(text).toContain('is authorized and connecting');
    expect((await waited).body).toEqual({ server: 'linear' });
    await stateOf(a, 'linear', 'connected');
    await stateOf(b, 'linear', 'connected');
    for (const svc of [a, b]) expect((await call(svc)).body.isError).toBeFalsy();
    // A state no replica holds is refused in one line.
    const unknown = new URL(atB);
    unknown.searchParams.set('state', 'nobody-holds-this');
    const refused = await fetch(unknown);
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('unknown, used or expired authorization state');
  });

  it('one refresh for the fleet: the other replica takes the new token, no grant is revoked', async () => {
    const { pair, a, b } = await twoReplicas();
    await authorizeThroughApi(a, 'linear', approve);
    await stateOf(a, 'linear', 'connected');
    await stateOf(b, 'linear', 'connected');
    for (const svc of [a, b]) expect((await call(svc)).body.isError).toBeFalsy();

    expect(pair.revokeAccessTokens()).toBeGreaterThan(0);
    const both = await Promise.all([call(a), call(b)]);
    for (const answer of both) expect(answer.body.isError, JSON.stringify(answer.body)).toBeFalsy();
    expect(pair.counts.refreshes).toBe(1);
    // The rotated grant lives: one more round refreshes once more, on either replica.
    expect(pair.revokeAccessTokens()).toBeGreaterThan(0);
    const again = await Promise.all([call(b), call(a)]);
    for (const answer of again) expect(answer.body.isError, JSON.stringify(answer.body)).toBeFalsy();
    expect(pair.counts.refreshes).toBe(2);
    expect((await a.server('linear'))?.state).toBe('connected');
    expect((await b.server('linear'))?.state).toBe('connected');
  });
});
