/**
 * `bnity mcp approve SERVER TOOL`: accept a quarantined tool's changed description or schema
 * (SPEC X5), through the running service.
 * @module
 */
import { resolveTarget, type TargetFlags } from './resolve-target.js';
import { needService } from './service-or-file.js';

/** Run `bnity mcp approve …`; resolves with the exit code. */
export async function approveCommand(
  server: string,
  tool: string,
  flags: TargetFlags & { hash?: string },
  env: NodeJS.ProcessEnv,
): Promise<number> {
  const { client, json } = await resolveTarget(flags, env);
  const query = flags.hash ? `?hash=${encodeURIComponent(flags.hash)}` : '';
  const path = `/api/servers/${encodeURIComponent(server)}/tools/${encodeURIComponent(tool)}/approve${query}`;
  try {
    const answer = await needService('approving', () =>
      client.request<{ server: string; tool: string; status: string }>('POST', path),
    );
    if (json) process.stdout.write(`${JSON.stringify(answer, null, 2)}\n`);
    else process.stdout.write(`approved tool "${tool}" of server "${server}": it is listed again\n`);
    return 0;
  } catch (error) {
    process.stderr.write(
      `bnity: could not approve tool "${tool}" of server "${server}": ${(error as Error).message}\n`,
    );
    return 1;
  }
}
