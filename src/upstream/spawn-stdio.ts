/**
 * The stdio transport of one upstream (S6): the SDK's `StdioClientTransport`, launched
 * through util-linux `setsid` so that the child leads its own process group and
 * everything it forks can be ended with it.
 * @module
 */
import type { ChildProcess } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, resolve } from 'node:path';
import type { Writable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import {
  getDefaultEnvironment,
  StdioClientTransport,
  type StdioServerParameters,
} from '@modelcontextprotocol/sdk/client/stdio.js';
import { ErrorCode, type JSONRPCMessage, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { StdioServerConfig } from '../config/schema.js';
import type { StderrSink } from './stderr-log.js';

/** Where util-linux `setsid` is expected; it execs in place, so the pid is the server's. */
export const SETSID_PATH = '/usr/bin/setsid';

/**
 * A stdio transport that reports its child's pid as soon as the process is spawned, and
 * writes the messages sent in one turn of the event loop to the child's stdin in one
 * write: concurrent calls share a syscall (and a wake-up of the child).
 */
export class SpawnedStdioTransport extends StdioClientTransport {
  readonly #onSpawn: (pid: number) => void;
  #stdin: Writable | null = null;
  #corked = false;

  constructor(params: StdioServerParameters, onSpawn: (pid: number) => void) {
    super(params);
    this.#onSpawn = onSpawn;
  }

  override async start(): Promise<void> {
    await super.start();
    // The SDK keeps the child in a field TypeScript calls private; its stdin is all we need.
    this.#stdin = (this as unknown as { _process?: ChildProcess })._process?.stdin ?? null;
    if (this.pid !== null) this.#onSpawn(this.pid);
  }

  override send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.#stdin;
    if (stdin && !this.#corked && stdin.writable) {
      this.#corked = true;
      stdin.cork();
      // After this turn's I/O callbacks: every call that arrived in it goes in one write.
      setImmediate(() => {
        this.#corked = false;
        stdin.uncork();
      });
    }
    return super.send(message).catch((error: unknown) => {
      // JSON.stringify recurses: arguments nested thousands deep cannot be written at all.
      if (error instanceof RangeError) {
        throw new McpError(ErrorCode.InvalidParams, 'the request is nested too deeply to send to the server');
      }
      throw error;
    });
  }
}

/** Options of {@link createStdioTransport}. */
export type CreateStdioTransportOptions = {
  readonly config: Pick<StdioServerConfig, 'command' | 'args' | 'env' | 'cwd'>;
  /** Receives the child's stderr; the pipe is always drained (the SDK stalls otherwise). */
  readonly stderr: StderrSink;
  readonly onSpawn: (pid: number) => void;
  /** Path of `setsid`; null launches the command directly. Default: {@link SETSID_PATH} if present. */
  readonly setsidPath?: string | null;
};

/**
 * Build (not start) the transport. Throws an ENOENT error naming the command, or the cwd,
 * when it does not exist: through `setsid` a missing command would only show as an exit.
 */
export function createStdioTransport({
  config,
  stderr,
  onSpawn,
  setsidPath = isExecutable(SETSID_PATH) ? SETSID_PATH : null,
}: CreateStdioTransportOptions): SpawnedStdioTransport {
  const env = { ...getDefaultEnvironment(), ...config.env };
  const cwd = config.cwd === undefined ? process.cwd() : resolve(config.cwd);
  if (!isDirectory(cwd)) throw enoent(`cwd ${config.cwd} does not exist`, cwd);
  const command = resolveCommand(config.command, { cwd, path: env.PATH ?? '' });
  if (command === null) throw enoent(`spawn ${config.command} ENOENT`, config.command);
  const transport = new SpawnedStdioTransport(
    {
      command: setsidPath ?? config.command,
      args: setsidPath === null ? config.args : ['--', command, ...config.args],
      env,
      cwd,
      stderr: 'pipe',
    },
    onSpawn,
  );
  // A decoder keeps multi-byte characters split across chunks intact.
  const decoder = new StringDecoder('utf8');
  transport.stderr?.on('data', (chunk: Buffer | string) =>
    stderr.write(typeof chunk === 'string' ? chunk : decoder.write(chunk)),
  );
  return transport;
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
