/**
 * Steps of an OAuth authorization through a test service's API (issue 23), shared by the
 * OAuth tests: wait for a server's state, start an authorization, approve it at the real
 * provider and bring the redirect back.
 * @module
 */
import type { ServerStatus } from '../../src/hub/server-status.js';
import type { TestService } from './test-service.js';
import { waitFor } from './wait-for.js';

/** What `POST /api/servers/{name}/authorize` answers. */
export type AuthorizationStarted = { url: string; state: string; authorizationServer: string; scopes: string[] };

/** Wait until `name` is in `want` on `svc`; the error names the state it was in and why. */
export async function stateOf(
  svc: Pick<TestService, 'server'>,
  name: string,
  want: ServerStatus['state'],
): Promise<ServerStatus> {
  let last: ServerStatus | undefined;
  return waitFor(
    async () => {
      last = await svc.server(name);
      return last?.state === want ? last : null;
    },
    { what: `${name} ${want}`, timeoutMs: 20_000 },
  ).catch((error: Error) => {
    throw new Error(`${error.message}; it is ${last?.state}: ${last?.lastError}`);
  });
}

/** Start an authorization of `name`, approve it (`approve` of oauth-servers.ts) and paste the redirect back. */
export async function authorizeThroughApi(
  svc: Pick<TestService, 'send'>,
  name: string,
  approve: (url: string) => Promise<string>,
): Promise<AuthorizationStarted> {
  const started = await svc.send<AuthorizationStarted>('POST', `/api/servers/${name}/authorize`, {});
  if (started.status !== 200) throw new Error(`authorize ${name}: ${started.status} ${JSON.stringify(started.body)}`);
  const redirectUrl = await approve(started.body.url);
  const done = await svc.send('POST', `/api/servers/${name}/authorize/complete`, { redirectUrl });
  if (done.status !== 200) throw new Error(`complete ${name}: ${done.status} ${JSON.stringify(done.body)}`);
  return started.body;
}
