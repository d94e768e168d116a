/**
 * Opening a stdio upstream (S6) over its child, spawned in its own process group: record it in
 * the ledger, initialize; closing ends the whole tree, and so does the child's own exit.
 * @module
 */
import type { StdioServerConfig } from '../config/schema.js';
import { connectFailed, describeConnectError } from './connect-error.js';
import { limitOutgoing } from './limit-outgoing.js';
import { killProcessTree } from './process-tree.js';
import { raceSignal } from './race-signal.js';
import { type OpenSessionOptions, once, type Session, type SessionPhase, trackClose } from './session.js';
import type { SpawnedUpstream } from './spawn-stdio.js';
import { ChildStdioTransport } from './stdio-transport.js';
import type { ProcessLedger } from './types.js';

/** Options of {@link openStdioSession}. */
export type OpenStdioSessionOptions = OpenSessionOptions & {
  readonly serverId: string;
  readonly config: StdioServerConfig;
  readonly ledger?: ProcessLedger | undefined;
  /** The child, spawned before the SDK loaded (ADR 015 §8), and its stderr log. */
  readonly upstream: SpawnedUpstream;
};

/** Record and initialize; on failure nothing of the child is left and the error names the cause. */
export async function openStdioSession(options: OpenStdioSessionOptions): Promise<Session> {
  const { serverId, config, ledger, graceMs, log, newClient, requestOptions, gate } = options;
  const { stderr, spawned } = options.upstream;
  if (spawned instanceof Error) throw spawned;
  const { pid, startTime } = spawned;
  // Spawn and exit records are chained so an exit is never written before its spawn.
  let ledgerWork: Promise<void> = Promise.resolve();
  const record = (what: string, write: (l: ProcessLedger) => Promise<void>) => {
    if (!ledger) return;
    ledgerWork = ledgerWork.then(() => write(ledger)).catch((error: unknown) => log.warn({ err: error }, what));
  };

  if (pid !== null && startTime !== null) {
    record('ledger spawn record failed', (l) => l.recordSpawn({ serverId, pid, startTime }));
  }
  const { floodReadBytesPerSecond } = config.notificationRate;
  const transport = new ChildStdioTransport(spawned, { gate, floodReadBytesPerSecond });
  const client = newClient();
  let phase: SessionPhase = 'connecting';
  const withStderr = (message: string) => (stderr.last() ? `${message}; stderr: ${stderr.last()}` : message);
  const closed = trackClose(client, {
    phase: () => phase,
    log,
    // A stray parse error seen earlier says less than the exit and the child's last words.
    unexpected: (lastError) => connectFailed(withStderr('upstream process exited'), lastError ?? undefined),
  });

  const endTree = () => (pid === null ? null : killProcessTree({ pid, graceMs, startTime: startTime ?? undefined }));
  const close = once(async () => {
    phase = 'closing';
    // The SDK's close() ends only the direct child; the tree kill covers everything it forked.
    await Promise.allSettled([endTree(), client.close()]);
    if (pid !== null) record('ledger exit record failed', (l) => l.recordExit(pid));
    await ledgerWork;
  });
  // The child exited on its own: end what it may have left behind in its group.
  void closed.then(() => (phase === 'closing' ? undefined : close()));

  limitOutgoing(transport, { server: serverId, maxBytes: config.maxMessageBytes });
  try {
    await raceSignal(client.connect(transport, requestOptions), requestOptions.signal);
  } catch (error) {
    await close();
    if (requestOptions.signal?.aborted) throw error;
    throw connectFailed(withStderr(describeConnectError(error)), error);
  }
  phase = 'live';
  await ledgerWork;
  return {
    client,
    transport: 'stdio',
    pid,
    stderr,
    closed,
    close,
  };
}
