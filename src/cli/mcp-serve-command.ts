/**
 * `bnity mcp serve --stdio`: serve the aggregated view (or one bot's, or one server's) to
 * a client that launches boternity as its MCP server, the way Claude Desktop does
 * (SPEC G1, A4). When a service runs in the data directory it bridges to that service;
 * only when none does it runs its own supervision. stdout carries MCP; logs go to stderr.
 * @module
 */
import { HubError, UsageError } from '../errors.js';
import type { ViewSpec } from '../gateway/views/index.js';
import type { ServiceOptions } from '../main.js';
import { readHomeOwner } from '../storage/home-lock.js';
import { resolveTarget, type Target, type TargetFlags } from './resolve-target.js';

type ServeFlags = TargetFlags & { stdio?: boolean; bot?: string; server?: string; standalone?: boolean };

/** Run `bnity mcp serve`. */
export async function mcpServeCommand(
  flags: ServeFlags,
  env: NodeJS.ProcessEnv,
  { codeCache }: Pick<ServiceOptions, 'codeCache'> = {},
): Promise<number> {
  if (!flags.stdio) throw new UsageError(`'bnity mcp serve' needs --stdio (over HTTP, 'bnity serve' serves /mcp)`);
  if (flags.bot && flags.server) throw new UsageError('give --bot or --server, not both');
  const spec: ViewSpec = flags.bot
    ? { kind: 'bot', slug: flags.bot }
    : flags.server
      ? { kind: 'server', server: flags.server }
      : { kind: 'all' };
  const target = await resolveTarget(flags, env);
  const say = (line: string) => process.stderr.write(`bnity: ${line}\n`);
  if (await serviceRuns(target, flags, env)) {
    const { bridgeStdio } = await import('./bridge-stdio.js');
    return bridgeStdio({ endpoint: `${target.client.baseUrl}${endpointPath(spec)}`, token: target.client.token, say });
  }
  return serveStandalone(flags, spec, env, codeCache);
}

/** `/mcp`, `/mcp/bots/{slug}` or `/mcp/servers/{name}`: the view asked for. */
function endpointPath(spec: ViewSpec): string {
  if (spec.kind === 'bot') return `/mcp/bots/${encodeURIComponent(spec.slug)}`;
  if (spec.kind === 'server') return `/mcp/servers/${encodeURIComponent(spec.server)}`;
  return '/mcp';
}

/**
 * Where to serve from. A service runs in the data directory (its lock is held), or the user
 * named one with `--url`/`BOTERNITY_URL`: it must answer `/healthz`, else this is an error,
 * not a reason to start a second supervisor on the same home. With neither, standalone when
 * it was asked for (`--standalone`, or a home or config named by flag or environment); with
 * nothing named, a service answering at the default URL is bridged to, and without one this
 * is an error: a client launched with nothing set would otherwise get a fresh default config
 * instead of the service the user runs with another home or port.
 */
async function serviceRuns(target: Target, flags: ServeFlags, env: NodeJS.ProcessEnv): Promise<boolean> {
  if (flags.standalone) {
    if (target.client.explicit) throw new UsageError('give --standalone or --url (BOTERNITY_URL), not both');
    return false;
  }
  const owner = await readHomeOwner(target.home);
  const answers = () =>
    fetch(`${target.client.baseUrl}/healthz`, { signal: AbortSignal.timeout(5_000) }).then(
      (r) => r.ok,
      () => false,
    );
  if (!owner && !target.client.explicit) {
    if (standaloneAsked(flags, env)) return false;
    if (await answers()) return true;
    throw new HubError(
      'upstream_unavailable',
      `no boternity service in ${target.home} nor at ${target.client.baseUrl}: start 'bnity serve', or point at it with BOTERNITY_HOME (its data directory) or BOTERNITY_URL (its address); --standalone serves ${target.home} without a service`,
    );
  }
  if (await answers()) return true;
  throw new HubError(
    'upstream_unavailable',
    owner
      ? `boternity (pid ${owner.pid}) runs in ${target.home} but nothing answers at ${target.client.baseUrl}: give its address with --url or BOTERNITY_URL`
      : `nothing answers at ${target.client.baseUrl}: start the service with 'bnity serve', or drop --url (and BOTERNITY_URL) to serve standalone`,
  );
}

/** Standalone was asked for: `--standalone`, or a data directory or config file chosen by flag or environment. */
function standaloneAsked(flags: ServeFlags, env: NodeJS.ProcessEnv): boolean {
  return Boolean(
    flags.standalone || flags.home || flags.config || env.BOTERNITY_HOME?.trim() || env.BOTERNITY_CONFIG?.trim(),
  );
}

/** No service in this home: supervise the config's servers in this process and serve one stdio session. */
async function serveStandalone(
  flags: ServeFlags,
  spec: ViewSpec,
  env: NodeJS.ProcessEnv,
  codeCache: ServiceOptions['codeCache'],
): Promise<number> {
  const [
    { StdioServerTransport },
    { effectiveServers },
    { createLogger },
    { startService },
    { serveStdioEras },
    { refuseClient },
  ] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/stdio.js'),
    import('../gateway/views/effective-servers.js'),
    import('../log/create-logger.js'),
    import('../main.js'),
    import('./serve-stdio-eras.js'),
    import('./refuse-client.js'),
  ]);
  const secrets = new Set<string>();
  const log = createLogger({ toStderr: true, secrets });
  const service = await startService({
    ...(flags.config ? { config: flags.config } : {}),
    ...(flags.home ? { home: flags.home } : {}),
    env,
    listen: false,
    secrets,
    log,
    ...(codeCache ? { codeCache } : {}),
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
    // A server or bot that does not exist is an error here, as it is a 404 over HTTP: the
    // client is told so in its answer to its first request, then the command fails with it.
    const refused = await viewError(async () => {
      effectiveServers(service.config(), spec);
      await service.gateway.checkView(spec);
    });
    if (refused) {
      // Until the client is answered, or it has gone (stdin closed) or a SIGTERM came.
      await Promise.race([refuseClient(transport, refused.message), ended]);
      throw refused;
    }
    // The client's first message picks the protocol era (ADR 013); a SIGTERM before it ends the wait.
    const serving = serveStdioEras(service.gateway, transport, {
      spec,
      // The operator's own stdio session: the bot tools as the admin token has them (G8).
      botAccess:
        spec.kind === 'server'
          ? null
          : { caller: { kind: 'admin' }, ...(spec.kind === 'bot' ? { bot: spec.slug } : {}) },
      label: 'stdio',
      clientId: 'stdio',
      onClose: () => end('session closed'),
      onerror: (error) => log.debug({ err: error }, 'stdio request refused'),
    });
    // A refusal after the end is of no interest: the service is stopping anyway.
    serving.catch(() => undefined);
    await Promise.race([serving, ended]);
    await service.stop(await ended);
  } catch (error) {
    await service.stop('failed');
    throw error;
  }
  return 0;
}

/** The error `check` throws for a view that does not exist (a bot or server), or null when it passes. */
async function viewError(check: () => Promise<void>): Promise<HubError | null> {
  try {
    await check();
    return null;
  } catch (error) {
    if (error instanceof HubError && (error.code === 'unknown_bot' || error.code === 'unknown_server')) return error;
    throw error;
  }
}
