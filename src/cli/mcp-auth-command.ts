/**
 * `bnity mcp auth NAME [--paste] [--revoke]` (issue 23, SPEC section 7): authorize boternity
 * at an HTTP server's OAuth authorization server. The service starts the flow and answers the
 * URL and the scopes asked for, printed before anything is granted; a browser opens only
 * where there is a display (and never with `--no-browser` or `BOTERNITY_NO_BROWSER`). The
 * command then waits for the redirect to reach the service's `/oauth/callback`, or for the
 * address the browser ended on to be pasted (always with `--paste`; also on a terminal), and
 * says "connected, N tools". `--revoke` revokes and forgets the server's tokens.
 * @module
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { resolveTarget, type TargetFlags } from './resolve-target.js';
import type { ServiceClient } from './service-client.js';
import { needService } from './service-or-file.js';
import { describeState, waitFirstState } from './wait-first-state.js';

/** Flags of the command. */
export type McpAuthFlags = TargetFlags & { revoke?: boolean; paste?: boolean; browser?: boolean };

type Start = { url: string; state: string; authorizationServer: string; scopes: string[]; expiresAt: string };
type Revoked = { forgotten: boolean; revoked: boolean; note: string | null };

/** Where the command reads a pasted address and writes what it says (tests give their own). */
export type AuthIo = { stdin: Readable & { isTTY?: boolean }; out: (text: string) => void };

const defaultIo = (): AuthIo => ({ stdin: process.stdin, out: (text) => process.stderr.write(text) });

/** Run it. */
export async function mcpAuthCommand(
  name: string,
  flags: McpAuthFlags,
  env: NodeJS.ProcessEnv,
  io: AuthIo = defaultIo(),
): Promise<number> {
  const { client, json } = await resolveTarget(flags, env);
  const base = `/api/servers/${encodeURIComponent(name)}`;
  if (flags.revoke) {
    const done = await needService(`revoking "${name}"`, () =>
      client.request<Revoked>('DELETE', `${base}/authorization`),
    );
    if (json) process.stdout.write(`${JSON.stringify({ server: name, ...done }, null, 2)}\n`);
    else
      process.stdout.write(
        `${name}: ${done.forgotten ? 'tokens forgotten' : 'no tokens were stored'}${done.revoked ? ', revoked at the authorization server' : ''}${done.note ? ` (${done.note})` : ''}\n`,
      );
    return 0;
  }
  const start = await needService(`authorizing "${name}"`, () => client.request<Start>('POST', `${base}/authorize`));
  io.out(
    `Authorize "${name}" at ${start.authorizationServer}\n` +
      `  scopes asked for: ${start.scopes.length > 0 ? start.scopes.join(' ') : '(none named)'}\n` +
      `Open this URL in a browser (it expires at ${start.expiresAt}):\n\n  ${start.url}\n\n`,
  );
  if (!flags.paste && flags.browser !== false && hasDisplay(env)) openBrowser(start.url);
  const readsPaste = flags.paste === true || io.stdin.isTTY === true;
  if (readsPaste) io.out('Waiting. On another machine, paste the address the browser ended on here and press Enter.\n');
  await finished(client, base, start.state, readsPaste ? io.stdin : null, flags.paste === true);
  const status = await waitFirstState(client, name, async () => undefined, { label: `connecting ${name}` });
  if (json) process.stdout.write(`${JSON.stringify({ server: status }, null, 2)}\n`);
  else process.stdout.write(`${name}: ${describeState(status)}\n`);
  return status.state === 'connected' ? 0 : 1;
}

/** The callback reached the service, or a pasted address was handed to it: whichever is first. */
async function finished(
  client: ServiceClient,
  base: string,
  state: string,
  stdin: Readable | null,
  pasteOnly: boolean,
): Promise<void> {
  const lines = stdin ? createInterface({ input: stdin, terminal: false }) : null;
  try {
    const pasted = lines
      ? new Promise<void>((resolve, reject) => {
          let got = false;
          lines.once('line', (line) => {
            got = true;
            client
              .request('POST', `${base}/authorize/complete`, { redirectUrl: line.trim() })
              .then(() => resolve(), reject);
          });
          lines.once('close', () => !got && pasteOnly && reject(new Error('no address was pasted (stdin ended)')));
        })
      : null;
    const called = pasteOnly ? null : client.get<{ server: string }>(`${base}/authorize/${encodeURIComponent(state)}`);
    await Promise.race([pasted, called].filter((p): p is Promise<never> => p !== null));
  } finally {
    lines?.close();
  }
}

/** A display a browser can open on: a desktop session, or macOS / Windows. */
export function hasDisplay(env: NodeJS.ProcessEnv): boolean {
  if (env.BOTERNITY_NO_BROWSER) return false;
  if (process.platform === 'darwin' || process.platform === 'win32') return true;
  return Boolean(env.DISPLAY || env.WAYLAND_DISPLAY);
}

function openBrowser(url: string): void {
  const [command, args] =
    process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '', url]]
        : ['xdg-open', [url]];
  // Best effort: the URL is printed anyway.
  const child = spawn(command, args as string[], { stdio: 'ignore', detached: true });
  child.on('error', () => undefined);
  child.unref();
}
