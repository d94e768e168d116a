/**
 * An early refresh (a token within its last quarter of life, at most 60 s) that fails for now —
 * the authorization server down or erring — sends the access token still in its life instead of
 * failing the call, and is tried again 5 s later; an expired token, or a grant refused for good,
 * fails as before. A real token endpoint on 127.0.0.1, the SDK's refresh, the real keystore.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/parse-config.js';
import type { RemoteServerConfig } from '../../src/config/schema.js';
import { HubError, NeedsAuthorizationError } from '../../src/errors.js';
import { createGuardedFetch } from '../../src/oauth/guarded-fetch.js';
import { createTokenKeeper } from '../../src/oauth/keep-tokens.js';
import { createOAuthStore, type OAuthRecord } from '../../src/oauth/oauth-store.js';
import { openKeystore } from '../../src/storage/keystore.js';
import { useTempDirs } from '../support/temp-dir.js';

const tempDir = useTempDirs('bnity-early-refresh-');
const SERVER_URL = 'http://127.0.0.1:9/mcp';
const START = 1_800_000_000_000;

/** The token endpoint: answers each refresh with what `next` says, and counts them. */
type TokenEndpoint = {
  url: string;
  requests: number;
  next: 'unavailable' | 'refused' | 'granted';
  close(): Promise<void>;
};

let endpoint: (TokenEndpoint & { server: Server }) | null = null;
afterEach(async () => {
  await endpoint?.close();
  endpoint = null;
});

async function startTokenEndpoint(): Promise<TokenEndpoint> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (!endpoint) return;
      endpoint.requests += 1;
      if (endpoint.next === 'unavailable') {
        res.writeHead(503, { 'content-type': 'text/plain' }).end('down for maintenance');
      } else if (endpoint.next === 'refused') {
        res.writeHead(400, { 'content-type': 'application/json' }).end('{"error":"invalid_grant"}');
      } else {
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ access_token: 'a2', refresh_token: 'r2', token_type: 'Bearer', expires_in: 3600 }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  endpoint = {
    server,
    url: issuer,
    requests: 0,
    next: 'unavailable',
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return endpoint;
}

/** A keeper over the real keystore with one server `linear` holding `a1` (due: 60 s left of 240). */
async function keeperWithToken(issuer: string) {
  const keystore = await openKeystore({ home: await tempDir(), env: {} });
  const store = createOAuthStore({ secrets: keystore });
  const record: OAuthRecord = {
    tokens: { access_token: 'a1', refresh_token: 'r1', token_type: 'Bearer' },
    expiresAt: START + 60_000,
    lifetimeMs: 240_000,
    client: { client_id: 'boternity-test' },
    serverUrl: SERVER_URL,
    discovery: {
      authorizationServerUrl: issuer,
      authorizationServerMetadata: {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        response_types_supported: ['code'],
      },
    },
  };
  await store.update('linear', () => record);
  const config = parseConfig({ mcpServers: { linear: { type: 'http', url: SERVER_URL } } }, null, {});
  let clock = START;
  const warned: string[] = [];
  const keeper = createTokenKeeper({
    store,
    secrets: keystore,
    config: (name) => (config.mcpServers[name] as RemoteServerConfig | undefined) ?? null,
    // As the service's: the guarded fetch (whose answers the SDK can tell by `instanceof Response`).
    fetchFor: (serverUrl) => createGuardedFetch({ serverUrl }),
    now: () => clock,
    onEarlyRefreshFailed: (server) => warned.push(server),
  });
  return { keeper, store, warned, advance: (ms: number) => (clock += ms) };
}

describe('an early token refresh', () => {
  it('that fails for now sends the token still valid, and tries again 5 s later', async () => {
    const at = await startTokenEndpoint();
    const { keeper, warned, advance } = await keeperWithToken(at.url);

    expect(await keeper.accessToken('linear', SERVER_URL)).toBe('a1');
    expect(at.requests).toBe(1);
    expect(warned).toEqual(['linear']);

    // Within the 5 s: no second attempt, every call gets the token still valid.
    advance(4_000);
    expect(await keeper.accessToken('linear', SERVER_URL)).toBe('a1');
    expect(at.requests).toBe(1);

    // Then again, and the authorization server is back.
    advance(1_500);
    at.next = 'granted';
    expect(await keeper.accessToken('linear', SERVER_URL)).toBe('a2');
    expect(at.requests).toBe(2);
  });

  it('fails as before once the token has expired', async () => {
    const at = await startTokenEndpoint();
    const { keeper, advance } = await keeperWithToken(at.url);
    advance(60_001);
    const failed = await keeper.accessToken('linear', SERVER_URL).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(HubError);
    expect((failed as HubError).code).toBe('upstream_failed');
    expect((failed as Error).message).toMatch(/^token refresh for "linear" at http:\/\/127\.0\.0\.1:\d+ failed: /);
  });

  it('fails as before when the grant is refused for good, its tokens forgotten', async () => {
    const at = await startTokenEndpoint();
    at.next = 'refused';
    const { keeper, store, warned } = await keeperWithToken(at.url);
    const failed = await keeper.accessToken('linear', SERVER_URL).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(NeedsAuthorizationError);
    expect(warned).toEqual([]);
    expect((await store.reload('linear')).tokens).toBeUndefined();
  });
});
