/**
 * `bnity mcp approve SERVER TOOL`: accept a quarantined tool's changed description or schema
 * (SPEC X5), through the running service.
 * @module
 */
import { parseArgs } from 'node:util';
import { resolveHome } from '../config/resolve-paths.js';
import { createServiceClient, isUnreachable } from './service-client.js';
import { UsageError } from './usage-error.js';

const HELP = `Usage: bnity mcp approve SERVER TOOL [--hash HASH] [--url URL] [--home DIR] [--json]
Lifts the quarantine of a tool whose description or schema changed since it was pinned.
With --hash (from the tool_quarantined event), only that reviewed change is approved.`;

/** Run `bnity mcp approve …`; resolves with the exit code. */
export async function approveCommand(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let parsed: {
    values: { url?: string; home?: string; hash?: string; json?: boolean; help?: boolean };
    positionals: string[];
  };
  try {
    parsed = parseArgs({
      args: [...argv],
      options: {
        url: { type: 'string' },
        home: { type: 'string' },
        hash: { type: 'string' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: true,
    }) as typeof parsed;
  } catch (error) {
    throw new UsageError(`${(error as Error).message}; run 'bnity mcp approve --help'`);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  const [server, tool, extra] = positionals;
  if (!server || !tool) throw new UsageError(`missing SERVER or TOOL: bnity mcp approve SERVER TOOL`);
  if (extra !== undefined) throw new UsageError(`unexpected argument "${extra}"; run 'bnity mcp approve --help'`);
  const home = resolveHome({ ...(values.home ? { home: values.home } : {}), env });
  const client = await createServiceClient({ home, env, ...(values.url ? { url: values.url } : {}) });
  const query = values.hash ? `?hash=${encodeURIComponent(values.hash)}` : '';
  const path = `/api/servers/${encodeURIComponent(server)}/tools/${encodeURIComponent(tool)}/approve${query}`;
  try {
    const answer = await client.request<{ server: string; tool: string; status: string }>('POST', path);
    if (values.json) process.stdout.write(`${JSON.stringify(answer, null, 2)}\n`);
    else process.stdout.write(`approved tool "${tool}" of server "${server}": it is listed again\n`);
    return 0;
  } catch (error) {
    const message = isUnreachable(error)
      ? `no service at ${client.baseUrl}: approving needs the running service (bnity serve)`
      : `could not approve tool "${tool}" of server "${server}": ${(error as Error).message}`;
    process.stderr.write(`bnity: ${message}\n`);
    return 1;
  }
}
