/**
 * `bnity mcp add` and `bnity mcp auth` (issue 23, SPEC section 7) as real child processes
 * against one real service, an oidc-provider authorization server and the SDK MCP server it
 * protects (test/support/oauth-servers.ts): add says authorization is needed and how; auth
 * prints the URL and the scopes, waits for the browser's redirect to the service (or a pasted
 * address), says "connected, N tools"; a bad paste is one line; --revoke forgets.
 */
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approve, type OAuthPair, startOAuthPair } from '../support/oauth-servers.js';
import { BNITY, runBnity, spawnBnity } from '../support/serve-process.js';
import { startTestService, TEST_TOKEN, type TestService } from '../support/test-service.js';
import { waitFor } from '../support/wait-for.js';

let pair: OAuthPair;
let svc: TestService;
let env: NodeJS.ProcessEnv;
const bnity = (...args: string[]) => runBnity(args, env);
const urlIn = (text: string) => /^\s+(http:\/\/127\.0\.0\.1:\d+\/auth\?\S+)$/m.exec(text)?.[1];

beforeAll(async () => {
  pair = await startOAuthPair();
  svc = await startTestService({ mcpServers: {} });
  // No display and no browser, whatever the machine running the tests has.
  env = {
    BOTERNITY_ADMIN_TOKEN: TEST_TOKEN,
    BOTERNITY_URL: svc.service.url,
    BOTERNITY_HOME: svc.home,
    BOTERNITY_NO_BROWSER: '1',
    DISPLAY: '',
    WAYLAND_DISPLAY: '',
  };
});
afterAll(async () => {
  await svc?.stop();
  await pair?.close();
});

describe('bnity mcp auth', () => {
  it('add says authorization is needed; auth prints the URL, waits for the callback, says connected', async () => {
    const added = await bnity('mcp', 'add', 'linear', '--url', pair.mcpUrl);
    expect(added.stdout).toBe(
      `added server "linear": needs authorization at ${pair.issuer}: run 'bnity mcp auth linear'\n`,
    );
    expect(added.code).toBe(0);
    const listed = await bnity('mcp', 'list');
    expect(listed.stdout).toMatch(/^linear\s+auto\s+needs_authorization\b/m);

    const auth = spawnBnity(['mcp', 'auth', 'linear'], env);
    const url = await waitFor(() => urlIn(auth.stderr()), { what: 'the URL' });
    expect(auth.stderr()).toContain(`Authorize "linear" at ${pair.issuer}\n  scopes asked for: mcp:tools\n`);
    // The browser: sign in, consent, and follow the redirect to the service's /oauth/callback.
    const page = await fetch(await approve(url));
    expect(page.status).toBe(200);
    expect(await auth.exited).toBe(0);
    expect(auth.stdout()).toBe('linear: connected, 2 tools\n');
    expect((await svc.server('linear'))?.state).toBe('connected');

    const revoked = await bnity('mcp', 'auth', 'linear', '--revoke');
    expect(revoked).toMatchObject({
      code: 0,
      stdout: 'linear: tokens forgotten, revoked at the authorization server\n',
    });
    await waitFor(async () => (await svc.server('linear'))?.state === 'needs_authorization', {
      what: 'needs_authorization again',
    });
  });

  it('--paste reads the address the browser ended on (a service on another machine)', async () => {
    const child = spawn(process.execPath, [BNITY, 'mcp', 'auth', 'linear', '--paste'], {
      env: { ...process.env, BOTERNITY_LOG_LEVEL: 'warn', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    // 'close', not 'exit': the child's output may still be on its way when it has exited.
    const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
    // The URL and the line that asks for the paste may come in two reads: wait for the second.
    await waitFor(() => stderr.includes('paste the address the browser ended on'), { what: 'the paste prompt' });
    const url = urlIn(stderr) as string;
    expect(url).toBeTruthy();
    // The browser could not reach the service: its address bar holds the redirect, pasted here.
    child.stdin.end(`${await approve(url)}\n`);
    expect(await exited).toBe(0);
    expect(stdout).toBe('linear: connected, 2 tools\n');
  });

  it('a pasted address with a wrong state is refused in one line; nothing changes', async () => {
    const child = spawn(process.execPath, [BNITY, 'mcp', 'auth', 'linear', '--paste'], {
      env: { ...process.env, BOTERNITY_LOG_LEVEL: 'warn', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    // 'close', not 'exit': the child's output may still be on its way when it has exited.
    const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
    const url = await waitFor(() => urlIn(stderr), { what: 'the URL' });
    const redirect = new URL(await approve(url));
    redirect.searchParams.set('state', 'forged');
    child.stdin.end(`${redirect.href}\n`);
    expect(await exited).toBe(1);
    const last = stderr.trim().split('\n').at(-1);
    expect(last).toBe('bnity: unknown, used or expired authorization state: start again with bnity mcp auth NAME');
    expect((await svc.server('linear'))?.state).toBe('connected');
  });
});
