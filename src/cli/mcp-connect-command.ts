/**
 * `bnity mcp connect|disconnect NAME`: start (or retry now) or stop a server of the running
 * service. `connect` waits for the first state and prints it.
 * @module
 */
import type { ServerStatus } from '../hub/server-status.js';
import { resolveTarget, type TargetFlags } from './resolve-target.js';
import { needService } from './service-or-file.js';
import { describeState, waitFirstState } from './wait-first-state.js';

/** Run `bnity mcp connect NAME` or `bnity mcp disconnect NAME`. */
export async function mcpConnectCommand(
  verb: 'connect' | 'disconnect',
  name: string,
  flags: TargetFlags & { wait?: boolean },
  env: NodeJS.ProcessEnv,
): Promise<number> {
  const { client, json } = await resolveTarget(flags, env);
  const path = `/api/servers/${encodeURIComponent(name)}/${verb}`;
  const request = () => client.request<{ server: ServerStatus }>('POST', path);
  const status = await needService(`${verb}ing "${name}"`, async () =>
    verb === 'connect' && flags.wait !== false ? waitFirstState(client, name, request) : (await request()).server,
  );
  if (json) process.stdout.write(`${JSON.stringify({ server: status }, null, 2)}\n`);
  else process.stdout.write(`${name}: ${describeState(status)}\n`);
  if (verb === 'connect' && status.state !== 'connected' && status.state !== 'connecting') return 1;
  return 0;
}
