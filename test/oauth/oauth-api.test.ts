/**
 * OAuth 2.1 to an upstream through the API (issue 23), against a real authorization server
 * (oidc-provider) and an SDK MCP server that checks its tokens, both on 127.0.0.1: add →
 * needs_authorization → authorize → connected; calls across an expired access token; a
 * refresh token revoked at the server; revoke; and the bad inputs, each refused in one line
 * with no token stored.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerStatus } from '../../src/hub/server-status.js';
import { recordName } from '../../src/oauth/index.js';
import { openKeystore } from '../../src/storage/keystore.js';
import { approve, type OAuthPair, startOAuthPair } from '../support/oauth-servers.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { waitFor } from '../support/wait-for.js';

type Start = { url: string; state: string; authorizationServer: string; scopes: string[] };

let pair: OAuthPair | null = null;
let svc: TestService | null = null;
const service = (): TestService => {
  if (!svc) throw new Error('no service started');
  return svc;
};
afterEach(async () => {
  await svc?.stop();
  await pair?.close();
  svc = null;
  pair = null;
});

const stateOf = async (name: string, want: ServerStatus['state']) => {
  let last: ServerStatus | undefined;
  return waitFor(
    async () => {
      last = await svc?.server(name);
      return last?.state === want ? last : null;
    },
    { what: `${name} ${want}`, timeoutMs: 20_000 },
  ).catch((error: Error) => {
    throw new Error(`${error.message}; it is ${last?.state}: ${last?.lastError}`);
  });
};

/** A service with one HTTP server `linear` behind the pair. */
async function setUp(options: Parameters<typeof startOAuthPair>[0] = {}) {
  pair = await startOAuthPair(options);
  svc = await startTestService({ mcpServers: { linear: { type: 'http', url: pair.mcpUrl } } });
  return { pair, svc };
}

const startAuth = async (name = 'linear') => {
  const started = await service().send<Start>('POST', `/api/servers/${name}/authorize`, {});
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  return started.body;
};
const complete = (redirectUrl: string) =>
  service().send<{ server?: string; error?: { message: string } }>('POST', '/api/servers/linear/authorize/complete', {
    redirectUrl,
  });
const keystoreText = async () => readFile(join(service().home, 'keystore.enc'), 'utf8').catch(() => '');
/** What the keystore holds for `linear`, decrypted as the service reads it. */
const storedRecord = async (): Promise<{ tokens?: { access_token?: string }; client?: { client_id?: string } }> => {
  const keystore = await openKeystore({ home: service().home, env: {} });
  return JSON.parse((await keystore.get(recordName('linear'))) ?? '{}');
};

describe('OAuth to an upstream, through the API', () => {
  it('goes needs_authorization (naming the authorization server), then authorized → connected, then calls', async () => {
    const { pair } = await setUp();
    const waiting = await stateOf('linear', 'needs_authorization');
    expect(waiting.authorizationServer).toBe(pair.issuer);
    expect(waiting.lastError).toMatch(/needs authorization at .*bnity mcp auth linear/);
    // Not retried with backoff: nothing is scheduled.
    expect(waiting.nextRetryAt).toBeNull();

    const started = await startAuth();
    expect(started.authorizationServer).toBe(pair.issuer);
    expect(started.scopes).toEqual(['mcp:tools']);
    const url = new URL(started.url);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('resource')).toBe(pair.mcpUrl);
    expect(url.searchParams.get('state')).toBe(started.state);
    expect(pair.counts.registrations).toBe(1);

    // The browser ends on the service's own /oauth/callback.
    const redirect = await approve(started.url);
    expect(redirect.startsWith(`${service().service.url}/oauth/callback?`)).toBe(true);
    const page = await fetch(redirect);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('is authorized and connecting');
    const connected = await stateOf('linear', 'connected');
    expect(connected.toolCount).toBe(2);

    const call = await service().send<{ isError?: boolean }>('POST', '/api/servers/linear/tools/echo/call', {
      arguments: {},
    });
    expect(call.status).toBe(200);
    expect(call.body.isError).toBeFalsy();
    // Stored encrypted in the keystore; no API answer carries a token.
    const record = await storedRecord();
    expect(record.tokens?.access_token).toBeTruthy();
    expect(await keystoreText()).not.toContain(record.tokens?.access_token);
    const listed = JSON.stringify((await service().api('/api/servers/linear')).body);
    expect(listed).not.toMatch(/access_token|refresh_token/);
    expect(await keystoreText()).not.toMatch(/access_token|refresh_token/);
    expect(listed).not.toContain(record.tokens?.access_token);
  });

  it('refreshes an expired access token before the call: no call fails, one refresh each time', async () => {
    const { pair } = await setUp({ accessTokenTtl: 2 });
    await stateOf('linear', 'needs_authorization');
    const started = await startAuth();
    expect((await complete(await approve(started.url))).status).toBe(200);
    await stateOf('linear', 'connected');
    const before = pair.counts.unauthorized;
    for (let i = 0; i < 3; i++) {
      // Past the token's life each time (the token is refreshed a quarter of its life early).
      await new Promise((r) => setTimeout(r, 2_100));
      const calls = await Promise.all(
        [1, 2, 3].map(() =>
          service().send<{ isError?: boolean }>('POST', '/api/servers/linear/tools/add/call', { arguments: {} }),
        ),
      );
      for (const call of calls) {
        expect(call.status).toBe(200);
        expect(call.body.isError).toBeFalsy();
      }
    }
    expect((await service().server('linear'))?.state).toBe('connected');
    // One refresh a round, though three calls met the expired token at once (a fourth only when a
    // round ran past the next refresh point on a slow machine); a double spend would have failed calls.
    expect(pair.counts.refreshes).toBeGreaterThanOrEqual(3);
    expect(pair.counts.refreshes).toBeLessThanOrEqual(4);
    // Rotation held: one live refresh token, never a reused one (a reuse would revoke the grant).
    expect(pair.refreshTokens()).toBeGreaterThanOrEqual(1);
    expect(pair.counts.unauthorized - before).toBeLessThanOrEqual(3);
  });

  it('a refresh token revoked at the server: needs_authorization again, with the reason', async () => {
    const { pair } = await setUp({ accessTokenTtl: 2 });
    await stateOf('linear', 'needs_authorization');
    expect((await complete(await approve((await startAuth()).url))).status).toBe(200);
    await stateOf('linear', 'connected');
    expect(pair.revokeRefreshTokens()).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 2_100));
    await service().send('POST', '/api/servers/linear/tools/echo/call', { arguments: {} });
    const back = await stateOf('linear', 'needs_authorization');
    expect(back.lastError).toMatch(/refresh was refused/);
    expect(back.authorizationServer).toBe(pair.issuer);
  });

  it('revoke forgets the tokens (and revokes them at the server)', async () => {
    const { pair } = await setUp();
    await stateOf('linear', 'needs_authorization');
    expect((await complete(await approve((await startAuth()).url))).status).toBe(200);
    await stateOf('linear', 'connected');
    const revoked = await service().api<{ forgotten: boolean; revoked: boolean }>('/api/servers/linear/authorization', {
      method: 'DELETE',
    });
    expect(revoked.body).toMatchObject({ forgotten: true, revoked: true });
    expect(pair.refreshTokens()).toBe(0);
    // The next connect has no token: back to needs_authorization.
    // The live connection went with them: it waits for an authorization again, and says so to a call.
    await stateOf('linear', 'needs_authorization');
    const call = await service().send('POST', '/api/servers/linear/tools/echo/call', { arguments: {} });
    expect(JSON.stringify(call.body)).toContain(`server \\"linear\\" needs authorization: run 'bnity mcp auth linear'`);
  });

  it('refuses metadata that names a plain-HTTP, non-loopback authorization server (SSRF rule), in one line', async () => {
    await setUp({ authorizationServers: ['http://auth.example.com'] });
    const waiting = await stateOf('linear', 'needs_authorization');
    expect(waiting.authorizationServer).toBeNull();
    expect(waiting.lastError).toMatch(/OAuth discovery failed: refused http:\/\/auth\.example\.com\/.*https only/);
    const start = await service().send<{ error: { message: string } }>('POST', '/api/servers/linear/authorize', {});
    expect(start.status).toBe(400);
    expect(start.body.error.message).toMatch(
      /^authorization of "linear" cannot start: refused http:\/\/auth\.example\.com/,
    );
    expect(start.body.error.message).not.toContain('\n');
    expect((await storedRecord()).tokens).toBeUndefined();
  });

  it('refuses a wrong state, a replayed redirect and an issuer mismatch in one line, storing nothing', async () => {
    await setUp();
    await stateOf('linear', 'needs_authorization');
    const started = await startAuth();
    const redirect = new URL(await approve(started.url));

    const wrongState = new URL(redirect);
    wrongState.searchParams.set('state', 'not-the-state');
    const refused = await complete(wrongState.href);
    expect(refused.status).toBe(400);
    expect(refused.body.error?.message).toMatch(/^unknown, used or expired authorization state/);
    expect(refused.body.error?.message).not.toContain('\n');

    const otherIssuer = new URL(redirect);
    otherIssuer.searchParams.set('iss', 'https://evil.example');
    const mixedUp = await complete(otherIssuer.href);
    expect(mixedUp.status).toBe(400);
    expect(mixedUp.body.error?.message).toMatch(/names issuer https:\/\/evil\.example, not http:\/\/127\.0\.0\.1/);
    // The state was spent by that try: the genuine redirect is now a replay.
    const replay = await complete(redirect.href);
    expect(replay.status).toBe(400);
    expect(replay.body.error?.message).toMatch(/unknown, used or expired/);
    expect((await service().server('linear'))?.state).toBe('needs_authorization');
    // A registration is kept (it serves the next try); no token is.
    expect((await storedRecord()).client?.client_id).toBeTruthy();
    expect((await storedRecord()).tokens).toBeUndefined();

    // A code replayed into a new flow (its PKCE verifier is another): the server refuses it.
    const second = await startAuth();
    const replayedCode = new URL(redirect);
    replayedCode.searchParams.set('state', second.state);
    const code = await complete(replayedCode.href);
    expect(code.status).toBe(400);
    expect(code.body.error?.message).toMatch(/^authorization of "linear" failed: /);
    expect(code.body.error?.message).not.toContain('\n');
    expect((await service().server('linear'))?.state).toBe('needs_authorization');
    expect((await storedRecord()).tokens).toBeUndefined();
  });
});

describe('a client registered by hand (the entry’s oauth section)', () => {
  it('is used instead of registering, its secret read from the keystore', async () => {
    pair = await startOAuthPair();
    svc = await startTestService({ mcpServers: {} });
    // The operator registers boternity at the authorization server (here through its registration endpoint).
    const registered = await fetch(`${pair.issuer}/reg`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        redirect_uris: [`${service().service.url}/oauth/callback`],
        token_endpoint_auth_method: 'client_secret_basic',
        grant_types: ['authorization_code', 'refresh_token'],
      }),
    });
    expect(registered.status).toBe(201);
    const client = (await registered.json()) as { client_id: string; client_secret: string };
    const registrations = pair.counts.registrations;
    expect(
      (await service().send('PUT', '/api/credentials/linear-secret', { value: client.client_secret })).status,
    ).toBe(204);
    const added = await service().send('POST', '/api/servers', {
      name: 'linear',
      type: 'http',
      url: pair.mcpUrl,
      oauth: { clientId: client.client_id, clientSecretKey: 'linear-secret', scopes: ['mcp:tools'] },
    });
    expect(added.status).toBe(201);
    await stateOf('linear', 'needs_authorization');
    const started = await startAuth();
    expect(new URL(started.url).searchParams.get('client_id')).toBe(client.client_id);
    expect(started.scopes).toEqual(['mcp:tools']);
    expect((await complete(await approve(started.url))).status).toBe(200);
    await stateOf('linear', 'connected');
    // Nothing was registered by boternity, and the config holds the keystore name, not the secret.
    expect(pair.counts.registrations).toBe(registrations);
    expect(await readFile(service().configPath, 'utf8')).not.toContain(client.client_secret);
  });
});
