/**
 * The RFC 8707 `resource` an upstream names is sent as it is given, at the authorization, the
 * code exchange and every refresh (issue 23): an authorization server that matches it exactly
 * (here oidc-provider taking only `http://127.0.0.1:port`, no path, no trailing slash) refused a
 * refresh that sent `http://127.0.0.1:port/` (the URL parser's `href`), and every call failed
 * after the first access token expired.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { authorizeThroughApi, stateOf } from '../support/oauth-flow.js';
import { approve, type OAuthPair, startOAuthPair } from '../support/oauth-servers.js';
import { startTestService, type TestService } from '../support/test-service.js';

let pair: OAuthPair | null = null;
let svc: TestService | null = null;
afterEach(async () => {
  await svc?.stop();
  await pair?.close();
  svc = null;
  pair = null;
});

describe('a pathless resource indicator', () => {
  it('is sent as given on refresh: calls go on across an access token the server dropped', async () => {
    pair = await startOAuthPair({ resource: 'origin' });
    expect(pair.resource).not.toMatch(/\/$/);
    svc = await startTestService({ mcpServers: { linear: { type: 'http', url: pair.mcpUrl } } });
    await stateOf(svc, 'linear', 'needs_authorization');
    const started = await authorizeThroughApi(svc, 'linear', approve);
    expect(new URL(started.url).searchParams.get('resource')).toBe(pair.resource);
    await stateOf(svc, 'linear', 'connected');

    // The server forgets the access token: the next request meets a 401 and refreshes.
    expect(pair.revokeAccessTokens()).toBeGreaterThan(0);
    const call = await svc.send<{ isError?: boolean }>('POST', '/api/servers/linear/tools/echo/call', {
      arguments: {},
    });
    expect(call.status, JSON.stringify(call.body)).toBe(200);
    expect(call.body.isError).toBeFalsy();
    expect(pair.counts.refreshes).toBe(1);
  });
});
