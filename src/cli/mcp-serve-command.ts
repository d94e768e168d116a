/**
 * `bnity mcp serve --stdio`: serve the aggregated view (or one bot's, or one server's) to
 * a client that launches boternity as its MCP server, the way Claude Desktop does
 * (SPEC G1). stdout carries MCP; logs go to stderr.
 * @module
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { ViewSpec } from '../gateway/effective-servers.js';
import { createLogger } from '../log/create-logger.js';
import { startService } from '../main.js';
import { parseFlags } from './parse-flags.js';
import { UsageError } from './usage-error.js';

const HELP = `Usage: bnity mcp serve --stdio [--bot SLUG | --server NAME] [--config PATH] [--home DIR]

Serves MCP on stdin/stdout; logs go to stderr. It runs its own supervision from the config,
so give it a home no running 'bnity serve' uses (or point the client at that service's /mcp).`;

/** Run `bnity mcp serve`. */
export async function mcpServeCommand(argv: readonly string[]): Promise<number> {
  const values = parseFlags(
    argv,
    {
      stdio: { type: 'boolean' },
      bot: { type: 'string' },
      server: { type: 'string' },
      config: { type: 'string' },
      home: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    'mcp serve',
  );
  if (values.help) {
    process.stderr.write(`${HELP}\n`);
    return 0;
  }
  if (!values.stdio) throw new UsageError(`'bnity mcp serve' needs --stdio (over HTTP, 'bnity serve' serves /mcp)`);
  if (values.bot && values.server) throw new UsageError('give --bot or --server, not both');
  const spec: ViewSpec = values.bot
    ? { kind: 'bot', slug: values.bot }
    : values.server
      ? { kind: 'server', server: values.server }
      : { kind: 'all' };

  const secrets = new Set<string>();
  const service = await startService({
    ...(values.config ? { config: values.config } : {}),
    ...(values.home ? { home: values.home } : {}),
    listen: false,
    secrets,
    log: createLogger({ toStderr: true, secrets }),
  });
  const transport = new StdioServerTransport();
  let end: (reason: string) => void = () => undefined;
  const ended = new Promise<string>((resolve) => {
    end = resolve;
    process.stdin.once('end', () => resolve('stdin closed'));
    process.once('SIGTERM', () => resolve('SIGTERM'));
    process.once('SIGINT', () => resolve('SIGINT'));
  });
  try {
    // A server or bot that is not configured is an error here, as it is a 404 over HTTP.
    await service.gateway.openSession({
      transport,
      spec,
      label: 'stdio',
      clientId: 'stdio',
      idles: false,
      onClose: () => end('session closed'),
    });
    await service.stop(await ended);
  } catch (error) {
    await service.stop('failed');
    throw error;
  }
  return 0;
}
