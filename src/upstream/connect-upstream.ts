/**
 * Opening an upstream session (S6, S7): transport, initialize, discovery, then a
 * {@link LiveUpstream} that watches list_changed, pings and closes without leftovers.
 * @module
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import type { Logger } from 'pino';
import type { ServerConfig } from '../config/schema.js';
import { HubError } from '../errors.js';
import { attachPeer } from './attach-peer.js';
import { connectFailed, describeConnectError } from './connect-error.js';
import { listCatalog } from './discover.js';
import { linkSignals } from './link-signals.js';
import { raceSignal } from './race-signal.js';
import { openRemoteSession } from './remote-session.js';
import type { OpenSessionOptions, Session } from './session.js';
import type { StderrSink } from './stderr-log.js';
import { openStdioSession } from './stdio-session.js';
import { toLiveUpstream } from './to-live-upstream.js';
import type { LiveUpstream, ProcessLedger, UpstreamPeer } from './types.js';
import { createCatalogWatch } from './watch-catalog.js';

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
  readonly now?: () => number;
  /** The keystore (C6): a remote server's `credentialKey` becomes `Authorization: Bearer …`. */
  readonly credentials?: { get(name: string): Promise<string | null> } | undefined;
  /** Opens the session instead of the config's transport: tests serve an in-process SDK server this way. */
  readonly openSession?: ((options: OpenSessionOptions) => Promise<Session>) | undefined;
  /**
   * Checks tool results against their output schemas; one for every connection (the SDK
   * otherwise builds an Ajv of its own per client: 0.5 ms and 30 KB each).
   */
  readonly schemaValidator?: jsonSchemaValidator | undefined;
};

const DEFAULT_CLIENT_INFO = { name: 'boternity', version: '0.1.0' };

/** Connect within `config.connectTimeoutMs` and list the catalog; rejects with a one-line reason. */
export async function connectUpstream(options: ConnectUpstreamOptions): Promise<LiveUpstream> {
  const { serverId, config, ledger, graceMs = 3_000, stderrLines = 500, now = Date.now } = options;
  const log = options.log.child({ server: serverId });
  const timeout = AbortSignal.timeout(config.connectTimeoutMs);
  // Not AbortSignal.any: the SDK's listener on it would keep every old Client (ADR 009).
  const linked = linkSignals([options.signal, timeout]);
  const deadline = linked.signal;
  // The SDK's own request timeout is set past the deadline, so the deadline's message wins.
  const requestOptions = { signal: deadline, timeout: config.connectTimeoutMs + 1_000 };
  const watch = createCatalogWatch({ log, requestTimeoutMs: config.requestTimeoutMs });
  const newClient = () => {
    const client = new Client(options.clientInfo ?? DEFAULT_CLIENT_INFO, {
      capabilities: options.peer?.capabilities ?? {},
      ...(options.schemaValidator ? { jsonSchemaValidator: options.schemaValidator } : {}),
    });
    if (options.peer) attachPeer(client, serverId, options.peer);
    return watch.attach(client);
  };

  log.info({ transport: config.transport }, 'upstream connecting');
  let session: Session | null = null;
  try {
    // Spawning is not abortable half-way: do not start what is already cancelled.
    deadline.throwIfAborted();
    const common = { newClient, requestOptions, graceMs, log };
    session = options.openSession
      ? await options.openSession(common)
      : config.transport === 'stdio'
        ? await openStdioSession({ ...common, serverId, config, ledger, stderrLines, stderr: options.stderr })
        : await openRemoteSession({ ...common, serverId, config, credentials: options.credentials });
    // The deadline is raced rather than passed down: the SDK never removes a request's abort
    // listener, and a long paginated listing would pile them onto one signal.
    watch.init(await raceSignal(listCatalog(session.client, { timeout: config.requestTimeoutMs }), deadline));
  } catch (error) {
    watch.stop();
    await session?.close();
    const failure = timeout.aborted
      ? connectFailed(`connect timed out after ${config.connectTimeoutMs} ms`, error)
      : options.signal?.aborted
        ? connectFailed('connect aborted', error)
        : error instanceof HubError
          ? error
          : connectFailed(describeConnectError(error), error);
    if (options.signal?.aborted) log.info('upstream connect abandoned');
    else log.warn({ err: failure }, 'upstream connect failed');
    throw failure;
  } finally {
    linked.unlink();
  }
  return toLiveUpstream({
    serverId,
    session,
    watch,
    log,
    connectedAt: now(),
    livenessTimeoutMs: config.livenessTimeoutMs,
  });
}
