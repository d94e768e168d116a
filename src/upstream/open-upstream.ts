/**
 * Opening an upstream session (S6, S7): transport, initialize, discovery, then a
 * {@link LiveUpstream} that watches list_changed, pings and closes without leftovers.
 * Loaded by {@link connectUpstream} once a stdio child is spawned (ADR 015 §8).
 * @module
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { HubError } from '../errors.js';
import { createSchemaValidator } from '../guard/schema-validator.js';
import { attachPeer } from './attach-peer.js';
import { connectFailed, describeConnectError, withStderr } from './connect-error.js';
import type { ConnectUpstreamOptions } from './connect-upstream.js';
import { listCatalog } from './discover.js';
import { linkSignals } from './link-signals.js';
import { raceSignal } from './race-signal.js';
import { createSchemaWarnings } from './schema-warnings.js';
import type { Session } from './session.js';
import { type SpawnedUpstream, spawnUpstream } from './spawn-stdio.js';
import { openStdioSession } from './stdio-session.js';
import { toLiveUpstream } from './to-live-upstream.js';
import type { LiveUpstream } from './types.js';
import { createCatalogWatch } from './watch-catalog.js';

const DEFAULT_CLIENT_INFO = { name: 'boternity', version: '0.1.0' };

/** What {@link openUpstream} takes: a stdio server's child may already be spawned. */
export type OpenUpstreamOptions = ConnectUpstreamOptions & {
  readonly upstream?: SpawnedUpstream | undefined;
  /** Aborts `connectTimeoutMs` after connecting began (default: from now). */
  readonly deadline?: AbortSignal | undefined;
};

/** Connect within `config.connectTimeoutMs` and list the catalog; rejects with a one-line reason. */
export async function openUpstream(options: OpenUpstreamOptions): Promise<LiveUpstream> {
  const { serverId, config, ledger, graceMs = 3_000, stderrLines = 500, now = Date.now } = options;
  const log = options.log.child({ server: serverId });
  // Loaded (main.ts) while the child starts; settled long before a client checks a schema. None
  // given: one of this connection's own, not the SDK's, whose Ajv keeps every schema it compiles.
  const schemaValidator = (await options.schemaValidator) ?? createSchemaValidator();
  const timeout = options.deadline ?? AbortSignal.timeout(config.connectTimeoutMs);
  // Not AbortSignal.any: the SDK's listener on it would keep every old Client (ADR 009).
  const linked = linkSignals([options.signal, timeout]);
  const deadline = linked.signal;
  // The SDK's own request timeout is set past the deadline, so the deadline's message wins.
  const requestOptions = { signal: deadline, timeout: config.connectTimeoutMs + 1_000 };
  const rate = config.notificationRate;
  const watch = createCatalogWatch({
    log,
    requestTimeoutMs: config.requestTimeoutMs,
    minIntervalMs: rate.relistMinIntervalMs,
  });
  const newClient = () => {
    const client = new Client(options.clientInfo ?? DEFAULT_CLIENT_INFO, {
      capabilities: options.peer?.capabilities ?? {},
      jsonSchemaValidator: schemaValidator,
    });
    if (options.peer) attachPeer(client, serverId, options.peer);
    return watch.attach(client);
  };

  // The hub logs each attempt of a configured server at info ('upstream connection attempt starting').
  log.debug({ transport: config.transport }, 'upstream connecting');
  let session: Session | null = null;
  try {
    // Spawning is not abortable half-way: do not start what is already cancelled. A child
    // already spawned is ended by its session, whose connect fails on the aborted signal.
    if (!options.upstream) deadline.throwIfAborted();
    const common = { newClient, requestOptions, graceMs, log, gate: options.notifications?.gateFor(serverId, rate) };
    session = options.openSession
      ? await options.openSession(common)
      : config.transport === 'stdio'
        ? await openStdioSession({
            ...common,
            serverId,
            config,
            ledger,
            upstream: options.upstream ?? (await spawnUpstream({ config, stderr: options.stderr, stderrLines })),
          })
        : // The SDK's HTTP and SSE clients (and OAuth's schemas) load for a remote server only.
          await (await import('./remote-session.js')).openRemoteSession({
            ...common,
            serverId,
            config,
            credentials: options.credentials,
            authorize: options.authorize,
          });
    // The deadline is raced rather than passed down: the SDK never removes a request's abort
    // listener, and a long paginated listing would pile them onto one signal.
    const listing = listCatalog(session.client, { timeout: config.requestTimeoutMs }, log).catch((error: unknown) => {
      if (!(error instanceof McpError && error.code === ErrorCode.RequestTimeout)) throw error;
      throw connectFailed(
        `listing the catalog timed out after ${config.requestTimeoutMs} ms (requestTimeoutMs)`,
        error,
      );
    });
    const catalog = await raceSignal(listing, deadline);
    watch.init(catalog);
    // A tool whose output schema does not compile is served unvalidated: named once on this server's log.
    const warnSchemas = createSchemaWarnings(schemaValidator, log);
    warnSchemas(catalog.tools);
    watch.watch((next) => warnSchemas(next.tools));
  } catch (error) {
    watch.stop();
    await session?.close();
    // What a stdio child printed while it would not answer is often the why (a login prompt, a missing key).
    const failure = timeout.aborted
      ? connectFailed(
          withStderr(`connect timed out after ${config.connectTimeoutMs} ms`, options.upstream?.stderr),
          error,
        )
      : options.signal?.aborted
        ? connectFailed('connect aborted', error)
        : error instanceof HubError
          ? error
          : connectFailed(
              config.transport === 'stdio'
                ? describeConnectError(error)
                : (await import('./create-transport.js')).describeRemoteError(error),
              error,
            );
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
    tracer: options.tracer,
  });
}
