/**
 * Spawning a stdio upstream (S6) with nothing but `node:child_process`: through util-linux
 * `setsid`, so the child leads its own process group and everything it forks can be ended
 * with it. Kept free of the MCP SDK so the child starts before the SDK loads (ADR 015 §8):
 * the transport ({@link ../upstream/stdio-transport.ts}) is wrapped around it afterwards.
 * @module
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import type { StdioServerConfig } from '../config/schema.js';
import { readStartTime } from './proc-stat.js';
import { readStderr } from './read-stderr.js';
import { createStderrLog, type StderrSink } from './stderr-log.js';
import { openStdoutSocket } from './stdout-socket.js';

/** How much of a child's stdout is held before a transport reads it (issue 17: a flood at spawn). */
const EARLY_MAX_BYTES = 1024 * 1024;

/** Where util-linux `setsid` is expected; it execs in place, so the pid is the server's. */
export const SETSID_PATH = '/usr/bin/setsid';

/**
 * What a child inherits of our environment besides its config's `env`: the SDK's
 * `getDefaultEnvironment` list (sudo's), repeated here because importing it loads the SDK.
 */
const INHERITED_ENV = ['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER'] as const;

/** A spawned stdio child, before any transport reads it. */
export type StdioChild = {
  readonly process: ChildProcess;
  /** Null when the spawn failed; {@link StdioChild.spawnError} then says why. */
  readonly pid: number | null;
  /** From /proc, read at the spawn (the ledger matches orphans by it); null if unreadable. */
  readonly startTime: string | null;
  /** The child's stdout as read here (our socket, or Node's pipe): to pause, resume, hear its errors. */
  readonly stdout: Readable | null;
  /** The spawn's `error` event, if it came before a transport listened. */
  spawnError(): Error | null;
  /** True once the child has exited and its stdout has been read to the end. */
  hasClosed(): boolean;
  /** Calls `listener` once, when {@link StdioChild.hasClosed} turns true. */
  onceClosed(listener: () => void): void;
  /**
   * Hands `onData` what stdout held so far, then each chunk as it comes. A chunk is lent for
   * the call only (the next read may overwrite it): what is kept past it must be copied.
   */
  readStdout(onData: (chunk: Buffer) => void): void;
};

/** Options of {@link spawnStdio}. */
export type SpawnStdioOptions = {
  readonly config: Pick<StdioServerConfig, 'command' | 'args' | 'env' | 'cwd'>;
  /** Receives the child's stderr; the pipe is always drained (the child stalls otherwise). */
  readonly stderr: Pick<StderrSink, 'write'>;
  /** Called at once with the pid, before any of the child's stderr is written. */
  readonly onSpawn: (pid: number) => void;
  /** Path of `setsid`; null launches the command directly. Default: {@link SETSID_PATH} if present. */
  readonly setsidPath?: string | null;
};

/**
 * Spawn the child now. Rejects with an ENOENT error naming the command, or the cwd, when it
 * does not exist: through `setsid` a missing command would only show as an exit. Its stdout
 * is a socket read into one buffer ({@link openStdoutSocket}), or Node's pipe where none can be made.
 */
export async function spawnStdio({
  config,
  stderr,
  onSpawn,
  setsidPath = isExecutable(SETSID_PATH) ? SETSID_PATH : null,
}: SpawnStdioOptions): Promise<StdioChild> {
  const plan = planSpawn(config, setsidPath);
  // Read from the start: Node discards the unread output of a child that exits.
  const early: Buffer[] = [];
  let earlyBytes = 0;
  let reader: ((chunk: Buffer) => void) | null = null;
  let stdout: Readable | null = null;
  const deliver = (chunk: Buffer): void => {
    if (reader) {
      reader(chunk);
      return;
    }
    early.push(Buffer.from(chunk));
    earlyBytes += chunk.length;
    // Nobody reads yet: past this much the pipe holds the rest and the child waits, not our memory.
    if (earlyBytes >= EARLY_MAX_BYTES) stdout?.pause();
  };
  const socket = await openStdoutSocket(deliver);
  let child: ChildProcess;
  try {
    child = spawn(plan.file, plan.args, {
      env: plan.env,
      cwd: plan.cwd,
      stdio: ['pipe', socket ? socket.theirs : 'pipe', 'pipe'],
      shell: false,
    });
  } catch (error) {
    socket?.ours.destroy();
    throw error;
  } finally {
    // The child has its own copy of this end now (or none: the spawn failed).
    socket?.theirs.destroy();
  }
  stdout = socket ? socket.ours : child.stdout;
  let spawnError: Error | null = null;
  let exited = false;
  // Node's pipe is part of the child's `close`; our socket ends on its own.
  let drained = socket === null;
  const closedListeners: (() => void)[] = [];
  const closedNow = () => {
    if (!exited || !drained) return;
    for (const listener of closedListeners.splice(0)) listener();
  };
  // Kept until a transport listens: an unheard `error` event would end the service.
  child.on('error', (error) => {
    spawnError ??= error;
  });
  child.once('close', () => {
    exited = true;
    closedNow();
  });
  if (socket) {
    // Its errors are the transport's to report once it listens; before that, the end below tells.
    socket.ours.on('error', () => undefined);
    socket.ours.once('close', () => {
      drained = true;
      closedNow();
    });
  } else child.stdout?.on('data', deliver);
  const pid = child.pid ?? null;
  if (pid === null) socket?.ours.destroy();
  else onSpawn(pid);
  if (child.stderr) readStderr(child.stderr, stderr);
  return {
    process: child,
    pid,
    startTime: pid === null ? null : readStartTime(pid),
    stdout,
    spawnError: () => spawnError,
    hasClosed: () => exited && drained,
    onceClosed(listener) {
      if (exited && drained) listener();
      else closedListeners.push(listener);
    },
    readStdout(onData) {
      reader = onData;
      // Flowing again on the next tick, after what was held is handed over.
      if (earlyBytes >= EARLY_MAX_BYTES) stdout?.resume();
      earlyBytes = 0;
      for (const chunk of early.splice(0)) onData(chunk);
    },
  };
}

/** What {@link spawnStdio} hands `spawn` for a server entry: the file, its arguments, env and cwd. */
export type SpawnPlan = {
  readonly file: string;
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string;
};

/**
 * The spawn `config` makes, without spawning; throws the ENOENT errors {@link spawnStdio} does.
 * @param setsidPath as in {@link SpawnStdioOptions}
 */
export function planSpawn(
  config: SpawnStdioOptions['config'],
  setsidPath: string | null = isExecutable(SETSID_PATH) ? SETSID_PATH : null,
): SpawnPlan {
  const env = { ...inheritedEnv(), ...config.env };
  const cwd = config.cwd === undefined ? process.cwd() : resolve(config.cwd);
  if (!isDirectory(cwd)) throw enoent(`cwd ${config.cwd} does not exist`, cwd);
  const command = resolveCommand(config.command, { cwd, path: env.PATH ?? '' });
  if (command === null) throw enoent(`spawn ${config.command} ENOENT`, config.command);
  const args = setsidPath === null ? config.args : ['--', command, ...config.args];
  return { file: setsidPath ?? config.command, args, env, cwd };
}

/**
 * One string for the spawn `config` makes (the resolved command, arguments, env and cwd):
 * two entries with the same key start the same process (ADR 032); null when it cannot spawn.
 */
export function spawnKey(config: SpawnStdioOptions['config']): string | null {
  try {
    const { file, args, env, cwd } = planSpawn(config);
    const vars = Object.keys(env)
      .sort()
      .map((name) => [name, env[name]]);
    return JSON.stringify([file, args, vars, cwd]);
  } catch {
    return null;
  }
}

/** A stdio upstream's child with the stderr log it writes to, or why it could not be spawned. */
export type SpawnedUpstream = { readonly stderr: StderrSink; readonly spawned: StdioChild | Error };

/** Options of {@link spawnUpstream}. */
export type SpawnUpstreamOptions = {
  readonly config: SpawnStdioOptions['config'];
  /** A log kept across restarts of the same server (marked with each pid); a fresh one otherwise. */
  readonly stderr?: StderrSink | undefined;
  readonly stderrLines: number;
};

/** Spawn a stdio upstream now; a failure to spawn is returned, to be reported by the connect. */
export async function spawnUpstream({
  config,
  stderr: kept,
  stderrLines,
}: SpawnUpstreamOptions): Promise<SpawnedUpstream> {
  const stderr = kept ?? createStderrLog(stderrLines);
  try {
    const onSpawn = (pid: number) => kept?.started(pid);
    return { stderr, spawned: await spawnStdio({ config, stderr, onSpawn }) };
  } catch (error) {
    return { stderr, spawned: error instanceof Error ? error : new Error(String(error)) };
  }
}

/** The variables of {@link INHERITED_ENV} we have, except exported shell functions. */
function inheritedEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const key of INHERITED_ENV) {
    const value = process.env[key];
    if (value !== undefined && !value.startsWith('()')) env[key] = value;
  }
  return env;
}

/** The path `execvp` would run for `command` (PATH lookup when it has no slash), or null. */
export function resolveCommand(command: string, { cwd, path }: { cwd: string; path: string }): string | null {
  if (command.includes('/')) {
    const file = isAbsolute(command) ? command : resolve(cwd, command);
    return isExecutable(file) ? file : null;
  }
  for (const dir of path.split(delimiter)) {
    const file = resolve(cwd, dir === '' ? '.' : dir, command);
    if (isExecutable(file)) return file;
  }
  return null;
}

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

function isDirectory(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

function enoent(message: string, path: string): NodeJS.ErrnoException {
  return Object.assign(new Error(message), { code: 'ENOENT', errno: -2, syscall: 'spawn', path });
}
