/**
 * Connecting an upstream (S6, S7). A stdio server's child is spawned here, first, with only
 * `node:child_process` loaded; the MCP SDK and the rest of the connect ({@link openUpstream})
 * load while the child starts: its start, not ours, is then the time to a first call (ADR 015 §8).
 * @module
 */

import type { Tracer } from '@opentelemetry/api';
import type { Logger } from 'pino';
import type { ServerConfig } from '../config/schema.js';
import type { SchemaValidator } from '../guard/schema-validator.js';
import type { NotificationLimits } from './notification-limits.js';
import type { Prespawned } from './prespawned.js';
import { killProcessTree } from './process-tree.js';
import type { UpstreamAuthorizer } from './remote-session.js';
import { hasSecretEnv, resolveSecretEnv } from './resolve-secret-env.js';
import type { OpenSessionOptions, Session } from './session.js';
import { type StdioChild, spawnUpstream } from './spawn-stdio.js';
import { createStderrLog, type StderrSink } from './stderr-log.js';
import type { LiveUpstream, ProcessLedger, UpstreamPeer } from './types.js';

/** Options of {@link connectUpstream}. */
export type ConnectUpstreamOptions = {
  readonly serverId: string;
  readonly config: ServerConfig;
  readonly log: Logger;
  /** Records stdio children so a later run can reap them after a crash. */
  readonly ledger?: ProcessLedger | undefined;
  /** Lines of stderr kept per stdio child (default 500). */
  readonly stderrLines?: number;
  /** A stderr log kept across this server's restarts (the hub's); a fresh one otherwise. */
  readonly stderr?: StderrSink | undefined;
  /** SIGTERM → SIGKILL grace when a stdio tree is ended (default 3000 ms). */
  readonly graceMs?: number;
  /** Abandons the connect: whatever was opened is closed and the promise rejects. */
  readonly signal?: AbortSignal | undefined;
  readonly clientInfo?: { name: string; version: string };
  /** Relays the upstream's requests (sampling, elicitation, roots) and notifications downstream. */
  readonly peer?: UpstreamPeer | undefined;
  /** Rate-limits each connection's notifications (`notificationRate`, issue 17); none: unlimited. */
  readonly notifications?: Pick<NotificationLimits, 'gateFor'> | undefined;
  readonly now?: () => number;
  /** The keystore (C6): a remote server's `credentialKey` becomes `Authorization: Bearer …`. */
  readonly credentials?: { get(name: string): Promise<string | null> } | undefined;
  /** OAuth to HTTP upstreams (issue 23): wraps a remote session's fetch; none: static credentials only. */
  readonly authorize?: UpstreamAuthorizer | undefined;
  /** Opens the session instead of the config's transport: tests serve an in-process SDK server this way. */
  readonly openSession?: ((options: OpenSessionOptions) => Promise<Session>) | undefined;
  /**
   * Checks tool results against their output schemas; one for every connection (the SDK
   * otherwise builds an Ajv of its own per client: 0.5 ms and 30 KB each, and keeps every
   * schema it compiles). One that tells `failure`s gets the tools it could not compile named.
   */
  readonly schemaValidator?: SchemaValidator | Promise<SchemaValidator> | undefined;
  /** Children started before the service loaded (ADR 032): one spawned exactly as this one would be is adopted. */
  readonly prespawned?: Prespawned | undefined;
  /** Traces on (issue 21): relayed requests get CLIENT spans; null or none: off. */
  readonly tracer?: Tracer | null | undefined;
};

/** Connect within `config.connectTimeoutMs` and list the catalog; rejects with a one-line reason. */
export async function connectUpstream(given: ConnectUpstreamOptions): Promise<LiveUpstream> {
  // `${secret:NAME}` in a stdio env: read from the keystore first (only then is the spawn an await later).
  const options =
    given.config.transport === 'stdio' && hasSecretEnv(given.config)
      ? { ...given, config: await resolveSecretEnv(given.config, given.credentials) }
      : given;
  const { config } = options;
  // The deadline runs from here, not from when the SDK has loaded (which can take a second).
  const deadline = AbortSignal.timeout(config.connectTimeoutMs);
  const stderrLines = options.stderrLines ?? 500;
  const stdio = config.transport === 'stdio' && !options.openSession && !options.signal?.aborted;
  // A child started before we loaded, exactly as this spawn would be (ADR 032), else a spawn now.
  const adopted = stdio
    ? options.prespawned?.take(given.serverId, config, options.stderr, () => createStderrLog(stderrLines))
    : undefined;
  if (adopted)
    options.log.info(
      { server: given.serverId, pid: (adopted.spawned as StdioChild).pid },
      'pre-spawned upstream adopted',
    );
  const upstream =
    adopted ?? (stdio ? await spawnUpstream({ config, stderr: options.stderr, stderrLines }) : undefined);
  let open: typeof import('./open-upstream.js').openUpstream;
  try {
    ({ openUpstream: open } = await import('./open-upstream.js'));
  } catch (error) {
    const child = upstream?.spawned;
    if (child && !(child instanceof Error) && child.pid !== null) {
      await killProcessTree({ pid: child.pid, graceMs: options.graceMs ?? 3_000 }).catch(() => undefined);
    }
    throw error;
  }
  return open({ ...options, upstream, deadline });
}
