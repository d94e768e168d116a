/**
 * A server's OAuth tokens go only to the URL they were issued for (issue 23, SPEC §4): a
 * server whose URL is changed, or a new server given a removed one's name, gets no token of
 * the old one; removing a server revokes and forgets its tokens; a record left by a server
 * removed while the service was down can still be revoked. Two real authorization servers with
 * their MCP servers, on 127.0.0.1.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { recordName } from '../../src/oauth/index.js';
import { openKeystore } from '../../src/storage/keystore.js';
import { authorizeThroughApi, stateOf } from '../support/oauth-flow.js';
import { approve, type OAuthPair, startOAuthPair } from '../support/oauth-servers.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { waitFor } from '../support/wait-for.js';

const pairs: OAuthPair[] = [];
const homes: string[] = [];
let svc: TestService | null = null;
afterEach(async () => {
  await svc?.stop();
  for (const pair of pairs.splice(0)) await pair.close();
  svc = null;
  for (const home of homes.splice(0)) await rm(home, { recursive: true, force: true });
});
const pairOf = async () => {
  const pair = await startOAuthPair();
  pairs.push(pair);
  return pair;
};
const stored = async (home: string) => {
  const keystore = await openKeystore({ home, env: {} });
  return keystore.get(recordName('linear'));
};

async function authorizedLinear(first: OAuthPair, home?: string) {
  const service = await startTestService(
    { mcpServers: { linear: { type: 'http', url: first.mcpUrl } } },
    home ? { home } : {},
  );
  svc = service;
  await stateOf(service, 'linear', 'needs_authorization');
  await authorizeThroughApi(service, 'linear', approve);
  await stateOf(service, 'linear', 'connected');
  expect(first.presented.length).toBeGreaterThan(0);
  return service;
}

describe('tokens bound to the URL they were issued for', () => {
  it('a changed URL gets no token: needs_authorization in one line, nothing sent to the new host', async () => {
    const [first, second] = [await pairOf(), await pairOf()];
    const service = await authorizedLinear(first);
    const changed = await service.send('PUT', '/api/servers/linear', { type: 'http', url: second.mcpUrl });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    const waiting = await stateOf(service, 'linear', 'needs_authorization');
    expect(waiting.lastError).toContain(`its stored authorization was given for ${first.mcpUrl}, not ${second.mcpUrl}`);
    expect(waiting.lastError).not.toContain('\n');
    expect(second.presented).toEqual([]);
    // Authorizing it at its own server works, and the tokens now go there.
    await authorizeThroughApi(service, 'linear', approve);
    await stateOf(service, 'linear', 'connected');
    expect(second.presented.length).toBeGreaterThan(0);
  });

  it('removing a server revokes and forgets its tokens; a new one of that name starts with none', async () => {
    const [first, second] = [await pairOf(), await pairOf()];
    const service = await authorizedLinear(first);
    expect(await stored(service.home)).toBeTruthy();
    expect((await service.api('/api/servers/linear', { method: 'DELETE' })).status).toBe(200);
    await waitFor(async () => (await stored(service.home)) === null, { what: 'the record forgotten' });
    expect(first.refreshTokens()).toBe(0);
    const added = await service.send('POST', '/api/servers', { name: 'linear', type: 'http', url: second.mcpUrl });
    expect(added.status).toBe(201);
    await stateOf(service, 'linear', 'needs_authorization');
    expect(second.presented).toEqual([]);
  });

  it('a server removed while the service was down can still be revoked; an unknown name is 404', async () => {
    const first = await pairOf();
    const home = await mkdtemp(join(tmpdir(), 'bnity-oauth-'));
    homes.push(home);
    const service = await authorizedLinear(first, home);
    await service.stop();
    svc = await startTestService({ mcpServers: {} }, { home });
    expect(await stored(home)).toBeTruthy();
    const revoked = await svc.api<{ forgotten: boolean; revoked: boolean }>('/api/servers/linear/authorization', {
      method: 'DELETE',
    });
    expect(revoked.status, JSON.stringify(revoked.body)).toBe(200);
    expect(revoked.body).toMatchObject({ forgotten: true, revoked: true });
    expect(first.refreshTokens()).toBe(0);
    expect(await stored(home)).toBeNull();
    expect((await svc.api('/api/servers/ghost/authorization', { method: 'DELETE' })).status).toBe(404);
  });
});
