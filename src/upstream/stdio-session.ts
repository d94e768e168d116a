/**
 * Opening a stdio upstream (S6): spawn the child in its own process group, record it in the
 * ledger, initialize; closing ends the whole tree, and so does the child's own exit.
 * @module
 */
import type { StdioServerConfig } from '../config/schema.js';
import { connectFailed, describeConnectError } from './connect-error.js';
import { limitOutgoing } from './limit-outgoing.js';
import { killProcessTree, readStartTime } from './process-tree.js';
import { raceSignal } from './race-signal.js';
import { type OpenSessionOptions, once, type Session, type SessionPhase, trackClose } from './session.js';
import { createStdioTransport } from './spawn-stdio.js';
import { createStderrLog, type StderrSink } from './stderr-log.js';
import type { ProcessLedger } from './types.js';

/** Options of {@link openStdioSession}. */
export type OpenStdioSessionOptions = OpenSessionOptions & {
  readonly serverId: string;
  readonly config: StdioServerConfig;
  readonly ledger?: ProcessLedger | undefined;
  readonly stderrLines: number;
  /** A log kept across restarts of the same server; a fresh one per session otherwise. */
  readonly stderr?: StderrSink | undefined;
};

/** Spawn and initialize; on failure nothing of the child is left and the error names the cause. */
export async function openStdioSession(options: OpenStdioSessionOptions): Promise<Session> {
  const { serverId, config, ledger, graceMs, log, newClient, requestOptions } = options;
  const stderr = options.stderr ?? createStderrLog(options.stderrLines);
  const child: { pid: number | null; startTime: string | null } = { pid: null, startTime: null };
  // Spawn and exit records are chained so an exit is never written before its spawn.
  let ledgerWork: Promise<void> = Promise.resolve();
  const record = (what: string, write: (l: ProcessLedger) => Promise<void>) => {
    if (!ledger) return;
    ledgerWork = ledgerWork.then(() => write(ledger)).catch((error: unknown) => log.warn({ err: error }, what));
  };

  const transport = createStdioTransport({
    config,
    stderr,
    onSpawn: (pid) => {
      if (options.stderr) stderr.mark(`[boternity] started pid ${pid}`);
      const startTime = readStartTime(pid);
      Object.assign(child, { pid, startTime });
      if (startTime !== null) record('ledger spawn record failed', (l) => l.recordSpawn({ serverId, pid, startTime }));
    },
  });
  const client = newClient();
  let phase: SessionPhase = 'connecting';
  const withStderr = (message: string) => (stderr.last() ? `${message}; stderr: ${stderr.last()}` : message);
  const closed = trackClose(client, {
    phase: () => phase,
    log,
    // A stray parse error seen earlier says less than the exit and the child's last words.
    unexpected: (lastError) => connectFailed(withStderr('upstream process exited'), lastError ?? undefined),
  });

  const endTree = () => {
    const { pid, startTime } = child;
    return pid === null ? null : killProcessTree({ pid, graceMs, startTime: startTime ?? undefined });
  };
  const close = once(async () => {
    phase = 'closing';
    // The SDK's close() ends only the direct child; the tree kill covers everything it forked.
    const tree = endTree();
    await Promise.allSettled([tree, client.close()]);
    // Spawned while we were already closing (an abort right at the start): end it now.
    if (tree === null) await endTree()?.catch(() => undefined);
    const { pid } = child;
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
    pid: child.pid,
    stderr,
    closed,
    close,
  };
}
