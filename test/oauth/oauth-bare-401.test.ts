/**
 * A bare 401 (`WWW-Authenticate: Bearer`, no `resource_metadata`, no `oauth` in the entry): as
 * MCP 2025-11-25 asks, boternity looks for RFC 9728 metadata at the upstream's well-known URL
 * before treating it as a plain HTTP 401 (which retried with backoff forever); with none there,
 * it stays the plain failure. Real authorization server and MCP server on 127.0.0.1.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { authorizeThroughApi, stateOf } from '../support/oauth-flow.js';
import { approve, type OAuthPair, startOAuthPair } from '../support/oauth-servers.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { waitFor } from '../support/wait-for.js';

let pair: OAuthPair | null = null;
let svc: TestService | null = null;
let plain: Server | null = null;
afterEach(async () => {
  await svc?.stop();
  await pair?.close();
  plain?.closeAllConnections();
  await new Promise((resolve) => (plain ? plain.close(resolve) : resolve(undefined)));
  svc = null;
  pair = null;
  plain = null;
});

describe('a bare 401', () => {
  it('finds the well-known resource metadata: needs_authorization, then authorized and connected', async () => {
    pair = await startOAuthPair({ challenge: 'bare' });
    svc = await startTestService({ mcpServers: { linear: { type: 'http', url: pair.mcpUrl } } });
    const waiting = await stateOf(svc, 'linear', 'needs_authorization');
    expect(waiting.authorizationServer).toBe(pair.issuer);
    await authorizeThroughApi(svc, 'linear', approve);
    await stateOf(svc, 'linear', 'connected');
  });

  it('with no metadata anywhere stays a plain HTTP 401', async () => {
    plain = createServer((_req, res) => res.writeHead(401, { 'www-authenticate': 'Bearer' }).end());
    await new Promise<void>((resolve) => plain?.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(plain.address() as AddressInfo).port}/mcp`;
    svc = await startTestService({ mcpServers: { plain: { type: 'http', url } } });
    const service = svc;
    const status = await waitFor(
      async () => {
        const now = await service.server('plain');
        return now?.lastError ? now : null;
      },
      { what: 'a failure of plain' },
    );
    expect(status.state).not.toBe('needs_authorization');
    expect(status.lastError).toMatch(/401/);
  });
});
