/**
 * Opening a stdio upstream (S6) over its child, spawned in its own process group: record it in
 * the ledger, initialize; closing ends the whole tree, and so does the child's own exit.
 * @module
 */
import type { StdioServerConfig } from '../config/schema.js';
import { ProgressBeforeAnswer } from '../protocol/progress-before-answer.js';
import { connectFailed, describeConnectError, withStderr } from './connect-error.js';
import { forgetGroup, noteGroup } from './live-groups.js';
import { killProcessTree, treeOf } from './process-tree.js';
import { raceSignal } from './race-signal.js';
import { type OpenSessionOptions, once, type Session, type SessionPhase, trackClose } from './session.js';
import type { SpawnedUpstream, StdioChild } from './spawn-stdio.js';
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
  if (pid !== null) noteGroup(pid);
  const { floodReadBytesPerSecond } = config.notificationRate;
  const transport = new ChildStdioTransport(spawned, {
    server: serverId,
    maxAnswerBytes: config.maxAnswerBytes,
    maxMessageBytes: config.maxMessageBytes,
    gate,
    floodReadBytesPerSecond,
    killGraceMs: graceMs,
  });
  const client = newClient();
  let phase: SessionPhase = 'connecting';
  const closed = trackClose(client, {
    phase: () => phase,
    log,
    // A stray parse error seen earlier says less than the exit and the child's last words;
    // a message over the bound is why the transport gave up on a child still running.
    unexpected: (lastError) =>
      transport.failure ??
      connectFailed(withStderr(describeExit(spawned) ?? 'upstream process exited', stderr), lastError ?? undefined),
  });

  const endTree = (known?: Map<number, string>) =>
    pid === null ? null : killProcessTree({ pid, graceMs, startTime: startTime ?? undefined, known });
  const close = once(async () => {
    phase = 'closing';
    // The child first, as MCP's stdio shutdown has it (the transport's close: stdin ended, a
    // chance to exit and save, then SIGTERM, then SIGKILL after `graceMs`); a SIGTERM sent
    // with the end of stdin cut short a server that saves on it. Then what it forked and left.
    const forked = pid === null ? undefined : treeOf(pid);
    await client.close().catch(() => undefined);
    await Promise.allSettled([endTree(forked)]);
    if (pid !== null) forgetGroup(pid);
    if (pid !== null) record('ledger exit record failed', (l) => l.recordExit(pid));
    await ledgerWork;
  });
  // The child exited on its own: end what it may have left behind in its group.
  void closed.then(() => (phase === 'closing' ? undefined : close()));

  try {
    // Progress read with its call's answer reaches the client before the answer (ADR 026).
    await raceSignal(client.connect(new ProgressBeforeAnswer(transport), requestOptions), requestOptions.signal);
  } catch (error) {
    // Before the close below ends it: how the child ended on its own says more than "Connection closed".
    const exit = describeExit(spawned);
    await close();
    if (requestOptions.signal?.aborted) throw error;
    if (transport.failure) throw transport.failure;
    throw connectFailed(withStderr(exit ? `${exit} during initialize` : describeConnectError(error), stderr), error);
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

/** "upstream process exited with code 3" or "… was killed by SIGKILL"; null while it runs. */
function describeExit(child: StdioChild): string | null {
  const { exitCode, signalCode } = child.process;
  if (exitCode !== null) return `upstream process exited with code ${exitCode}`;
  return signalCode !== null ? `upstream process was killed by ${signalCode}` : null;
}
