/**
 * `bnity mcp budget reset SERVER`: forget what a server has spent on sampling (SPEC X6),
 * through the running service.
 * @module
 */
import { resolveTarget, type TargetFlags } from './resolve-target.js';
import { needService } from './service-or-file.js';

/** Run `bnity mcp budget reset SERVER`; resolves with the exit code. */
export async function budgetReset(server: string, flags: TargetFlags, env: NodeJS.ProcessEnv): Promise<number> {
  const { client } = await resolveTarget(flags, env);
  await needService('resetting a budget', () =>
    client.request('POST', `/api/servers/${encodeURIComponent(server)}/sampling/reset`),
  );
  process.stdout.write(`sampling budget of server "${server}" reset\n`);
  return 0;
}
