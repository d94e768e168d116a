/**
 * `bnity mcp budget reset SERVER`: forget what a server has spent on sampling (SPEC X6),
 * through the running service.
 * @module
 */
import { resolveHome } from '../config/resolve-paths.js';
import { HubError } from '../errors.js';
import { parseFlags } from './parse-flags.js';
import { createServiceClient, isUnreachable } from './service-client.js';
import { UsageError } from './usage-error.js';

const HELP = `Usage: bnity mcp budget reset SERVER [--url URL] [--home DIR]
Resets the sampling tokens SERVER has spent against its samplingBudgetTokens.`;

/** Run `bnity mcp budget …`; resolves with the exit code. */
export async function budgetCommand(argv: readonly string[]): Promise<number> {
  const [sub, server, ...rest] = argv;
  if (sub === '--help' || sub === '-h') {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  if (sub !== 'reset' || !server || server.startsWith('-'))
    throw new UsageError(`usage: bnity mcp budget reset SERVER`);
  const values = parseFlags(rest, { url: { type: 'string' }, home: { type: 'string' } }, 'mcp budget');
  const home = resolveHome(values.home ? { home: values.home } : {});
  const client = await createServiceClient({ home, ...(values.url ? { url: values.url } : {}) });
  try {
    await client.request('POST', `/api/servers/${encodeURIComponent(server)}/sampling/reset`);
  } catch (error) {
    if (isUnreachable(error))
      throw new HubError(
        'upstream_unavailable',
        `no service at ${client.baseUrl}: resetting a budget needs the running service (bnity serve)`,
      );
    throw error;
  }
  process.stdout.write(`sampling budget of server "${server}" reset\n`);
  return 0;
}
