/**
 * What an authorization asks for by default (docs/configuration.md, `oauth.scopes`): the
 * scope the upstream's 401 named (`WWW-Authenticate: Bearer …, scope="…"`, RFC 6750), not
 * every scope its metadata lists — the SDK's own default, which asked for too much (the
 * entry's `scopes`, when set, are asked as before). Real authorization server and MCP server
 * on 127.0.0.1.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { AuthorizationStarted } from '../support/oauth-flow.js';
import { stateOf } from '../support/oauth-flow.js';
import { type OAuthPair, startOAuthPair } from '../support/oauth-servers.js';
import { startTestService, type TestService } from '../support/test-service.js';

let pair: OAuthPair | null = null;
let svc: TestService | null = null;
afterEach(async () => {
  await svc?.stop();
  await pair?.close();
  svc = null;
  pair = null;
});

const started = async (service: TestService, name: string) => {
  const answer = await service.send<AuthorizationStarted>('POST', `/api/servers/${name}/authorize`, {});
  expect(answer.status).toBe(200);
  return answer.body;
};

describe('the scope an authorization asks for', () => {
  it("is the 401's scope by default, not every scope the metadata lists", async () => {
    pair = await startOAuthPair({ scopesSupported: ['mcp:tools', 'mcp:admin'] });
    svc = await startTestService({
      mcpServers: {
        linear: { type: 'http', url: pair.mcpUrl },
      },
    });
    await stateOf(svc, 'linear', 'needs_authorization');
    const flow = await started(svc, 'linear');
    expect(flow.scopes).toEqual(['mcp:tools']);
    expect(new URL(flow.url).searchParams.get('scope')).toBe('mcp:tools');
  });
});
