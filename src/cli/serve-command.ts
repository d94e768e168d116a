/**
 * `bnity serve`: start the service and run until SIGTERM/SIGINT, then drain and exit 0
 * with no child process left (SPEC section 7).
 * @module
 */

import { UsageError } from '../errors.js';
import { type ServiceOptions, startService } from '../main.js';
import { tuneProcess } from '../runtime/tune-process.js';
import { killAllBelowNow } from '../upstream/process-tree.js';
import { watchParent } from './watch-parent.js';

/**
 * A signal this soon after the first is the same request to stop: a terminal's Ctrl-C reaches
 * the whole foreground group, and `npm start` passes its own copy on to the service.
 */
const SAME_SIGNAL_MS = 1_000;

/**
 * A second signal during the drain: end every process below this one (the stdio children and
 * their groups, so none outlives the service, S6) and exit 1 at once. The home's lock is left
 * (the next start takes it over).
 */
function stopNow(signal: NodeJS.Signals): never {
  const killed = killAllBelowNow(process.pid);
  process.stderr.write(
    `bnity: a second ${signal}: stopped at once without draining (${killed} child processes killed)\n`,
  );
  process.exit(1);
}

/** Parse a port flag or variable; throws a usage error naming the source. */
export function parsePort(value: string, source: string): number {
  if (!/^\d+$/.test(value) || Number(value) > 65_535)
    throw new UsageError(`${source} must be a port number from 0 to 65535, got "${value}"`);
  return Number(value);
}

/** Run `bnity serve` with its parsed flags. */
export async function serveCommand(
  values: { config?: string; home?: string; host?: string; port?: string },
  env: NodeJS.ProcessEnv,
  /** Children `bin/bnity.js` started early (ADR 032), for the service to adopt or end; the code cache's fate (ADR 033). */
  { prespawned, codeCache }: Pick<ServiceOptions, 'prespawned' | 'codeCache'> = {},
): Promise<number> {
  const port =
    values.port !== undefined
      ? parsePort(values.port, '--port')
      : env.BOTERNITY_PORT
        ? parsePort(env.BOTERNITY_PORT, 'BOTERNITY_PORT')
        : 7777;

  // Under `npm start`, the end of npm is the end of the service (ADR 009). The launcher is
  // noted now, before the start: noted after it, a launcher killed while the service was
  // starting would be taken for the parent it was re-parented to, and never be missed.
  const launcherGone = new Promise<string>((resolve) => {
    watchParent({ env, onGone: () => resolve('launcher gone') });
  });
  // The signals too, before the start: a SIGTERM that came while the service was starting
  // found no handler and ended the process on the spot, its home still locked (the npm-start
  // test's rare failure). Now it waits for the start to finish, then drains. Handled for the
  // whole run: the first starts the drain; one within SAME_SIGNAL_MS of it is the same stop
  // (Ctrl-C on `npm start` reaches the service from the terminal and again from npm), and a
  // later one means "now".
  let first: number | null = null;
  const signalled = new Promise<string>((resolve) => {
    const onSignal = (signal: NodeJS.Signals) => {
      if (first === null) {
        first = performance.now();
        resolve(signal);
      } else if (performance.now() - first >= SAME_SIGNAL_MS) stopNow(signal);
    };
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
  });
  const service = await startService({
    ...(values.config ? { config: values.config } : {}),
    ...(values.home ? { home: values.home } : {}),
    env,
    host: values.host ?? '127.0.0.1',
    port,
    // This process is the service's own: V8 is tuned for it (unless `runtime.tuneProcess` is false).
    tuneProcess,
    ...(prespawned ? { prespawned } : {}),
    ...(codeCache ? { codeCache } : {}),
  });
  const lines = [
    `boternity is running`,
    `  web UI       ${service.signInUrl ?? `${service.url}/`}`,
    `  control API  ${service.url}/api/servers`,
    `  events       ${service.url}/api/events`,
    `  MCP endpoint ${service.url}/mcp`,
    `  config       ${service.configPath}`,
    `  admin token  ${service.tokenSource}`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);

  const signal = await Promise.race([launcherGone, signalled]);
  // The launcher gone first: a signal after it is a second one, "now".
  first ??= performance.now() - SAME_SIGNAL_MS;
  await service.stop(signal);
  return 0;
}
