/**
 * Runs server-everything over HTTP on a free 127.0.0.1 port for a test: Streamable HTTP at
 * `/mcp` or legacy HTTP+SSE at `/sse`.
 * @module
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { EVERYTHING_BIN } from './everything.js';
import { BIND_LOCALHOST } from './fixtures.js';
import { freePort } from './free-port.js';

/** A running server-everything. */
export type EverythingHttp = {
  /** The MCP endpoint: `http://127.0.0.1:PORT/mcp` or `…/sse`. */
  readonly url: string;
  readonly port: number;
  /** Pid of the current server process. */
  readonly pid: number;
  /** Output of the current server process, for diagnosing a failed test. */
  readonly output: () => string;
  /** Ends the server; resolves when it has exited. Idempotent. */
  stop(): Promise<void>;
  /** Stops it if running, then starts it again on the same port and waits until it is ready. */
  restart(): Promise<void>;
};

/** Options of {@link startEverythingHttp}. */
export type StartEverythingHttpOptions = {
  /** `streamableHttp` (default) or the legacy `sse`. */
  readonly transport?: 'streamableHttp' | 'sse';
  readonly port?: number;
  readonly readyTimeoutMs?: number;
};

/** Start it and wait until the port accepts connections. */
export async function startEverythingHttp({
  transport = 'streamableHttp',
  port: requested,
  readyTimeoutMs = 15_000,
}: StartEverythingHttpOptions = {}): Promise<EverythingHttp> {
  const port = requested ?? (await freePort());
  let run = await launch(transport, port, readyTimeoutMs);
  return {
    url: `http://127.0.0.1:${port}${transport === 'sse' ? '/sse' : '/mcp'}`,
    port,
    get pid() {
      return run.pid;
    },
    output: () => run.output(),
    stop: () => run.stop(),
    async restart() {
      await run.stop();
      run = await launch(transport, port, readyTimeoutMs);
    },
  };
}

type Run = { pid: number; output: () => string; stop: () => Promise<void> };

async function launch(transport: string, port: number, readyTimeoutMs: number): Promise<Run> {
  const child = spawn(process.execPath, [EVERYTHING_BIN, transport], {
    env: { ...process.env, PORT: String(port), NODE_OPTIONS: `--require ${BIND_LOCALHOST}` },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = once(() => stopChild(child, exited));
  try {
    await waitForPort(port, child, readyTimeoutMs);
  } catch (error) {
    await stop();
    throw new Error(`server-everything ${transport} did not start: ${String(error)}\n${output}`);
  }
  return { pid: child.pid ?? -1, output: () => output, stop };
}

async function waitForPort(port: number, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`exited (${child.exitCode})`);
    if (await accepts(port)) return;
    await sleep(50);
  }
  throw new Error(`port ${port} not open after ${timeoutMs} ms`);
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function stopChild(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timer = new AbortController();
  const killed = sleep(3_000, 'timeout', { signal: timer.signal }).catch(() => 'exited');
  if ((await Promise.race([exited.then(() => 'exited'), killed])) === 'timeout') {
    child.kill('SIGKILL');
    await exited;
  }
  timer.abort();
}

function once(run: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | null = null;
  return () => {
    running ??= run();
    return running;
  };
}
