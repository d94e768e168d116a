/**
 * The stdio transport of one upstream (S6) over an already spawned child ({@link spawnStdio}),
 * on the SDK's `Transport` interface, the SDK's `serializeMessage` and message schemas. It
 * exists because the SDK's `StdioClientTransport` spawns in `start()`, after the SDK has
 * loaded; ours lets the child start first (ADR 015 §8), and reads lines without copying
 * and checks each by its shape (§10). Behaves as the SDK's does: same close sequence,
 * same errors.
 * @module
 */
import type { Writable } from 'node:stream';
import { serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, type JSONRPCMessage, McpError } from '@modelcontextprotocol/sdk/types.js';
import { UnreadableLineError } from '../errors.js';
import { parseMessage } from '../protocol/parse-message.js';
import type { NotificationGate } from './notification-limits.js';
import { peekNotificationMethod } from './peek-method.js';
import type { StdioChild } from './spawn-stdio.js';
import { LineSplitter } from './split-lines.js';

/** How long `close()` waits for the child after ending its stdin, and again after SIGTERM (the SDK's). */
const CLOSE_WAIT_MS = 2_000;
/** How much of an unreadable line its error quotes. */
const EXCERPT_CHARS = 80;

/** Options of {@link ChildStdioTransport}. */
export type ChildStdioTransportOptions = {
  /** Rate-limits the child's notifications: one refused is dropped before it is parsed (issue 17). */
  readonly gate?: NotificationGate | undefined;
  /**
   * While notifications are dropped, stdout is read at most this fast (bytes a second): a
   * flooding child waits on its pipe instead of being read and dropped as fast as it writes.
   */
  readonly floodReadBytesPerSecond?: number | undefined;
};

/**
 * A transport on `child`'s stdin and stdout that writes the messages sent in one turn of
 * the event loop in one write: concurrent calls share a syscall (and a wake-up of the child).
 */
export class ChildStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  readonly #child: StdioChild;
  readonly #gate: NotificationGate | null;
  readonly #floodReadBytesPerSecond: number;
  readonly #lines = new LineSplitter();
  readonly #onLine = (line: string): void => this.#read(line);
  #live = false;
  #corked = false;
  #dropped = false;
  #holding: NodeJS.Timeout | null = null;

  constructor(child: StdioChild, { gate, floodReadBytesPerSecond = 1024 * 1024 }: ChildStdioTransportOptions = {}) {
    this.#child = child;
    this.#gate = gate ?? null;
    this.#floodReadBytesPerSecond = floodReadBytesPerSecond;
  }

  #admit(method: string): boolean {
    if (this.#gate?.admit(method) !== false) return true;
    this.#dropped = true;
    return false;
  }

  // A chunk that had drops is paid for in time: stdout rests as long as the chunk is worth.
  #holdBack(bytes: number): void {
    const stdout = this.#child.process.stdout;
    if (!stdout || !this.#live || this.#holding) return;
    stdout.pause();
    this.#holding = setTimeout(
      () => {
        this.#holding = null;
        stdout.resume();
      },
      Math.ceil((bytes / this.#floodReadBytesPerSecond) * 1_000),
    );
  }

  // A line that is not a message is reported (briefly: upstream text, not our fault) and
  // skipped; the next one is read. A notification over the rate is dropped unparsed.
  #read(line: string): void {
    const peeked = this.#gate ? peekNotificationMethod(line) : null;
    if (peeked !== null && !this.#admit(peeked)) return;
    let message: JSONRPCMessage;
    try {
      const value: unknown = JSON.parse(line);
      const method = this.#gate && peeked === null ? notificationMethod(value) : null;
      if (method !== null && !this.#admit(method)) return;
      message = parseMessage(value);
    } catch (error) {
      const reason = error instanceof SyntaxError ? 'not JSON' : 'not a JSON-RPC message';
      this.onerror?.(new UnreadableLineError(reason, JSON.stringify(line.slice(0, EXCERPT_CHARS)), line.length));
      return;
    }
    try {
      this.onmessage?.(message);
    } catch (error) {
      this.onerror?.(error as Error);
    }
  }

  /** The child's pid; null if the spawn failed. */
  get pid(): number | null {
    return this.#child.pid;
  }

  async start(): Promise<void> {
    if (this.#live) throw new Error('ChildStdioTransport already started');
    const child = this.#child.process;
    if (this.#child.pid === null) {
      // A failed spawn reports its error on the next tick, maybe not yet heard.
      throw this.#child.spawnError() ?? (await new Promise<Error>((resolve) => child.once('error', resolve)));
    }
    this.#live = true;
    child.on('error', (error) => this.onerror?.(error));
    child.stdin?.on('error', (error) => this.onerror?.(error));
    child.stdout?.on('error', (error) => this.onerror?.(error));
    this.#child.readStdout((chunk) => {
      this.#dropped = false;
      try {
        this.#lines.push(chunk, this.#onLine);
      } catch (error) {
        this.onerror?.(error as Error);
        this.close().catch(() => undefined);
      }
      if (this.#dropped) this.#holdBack(chunk.length);
    });
    const closed = () => {
      this.#live = false;
      this.onclose?.();
    };
    // A child that exited while the SDK loaded: its output went first (above), then its close.
    if (this.#child.hasClosed()) setImmediate(closed);
    else child.once('close', closed);
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.#live ? this.#child.process.stdin : null;
    if (!stdin) return Promise.reject(new Error('Not connected'));
    let json: string;
    try {
      json = serializeMessage(message);
    } catch (error) {
      // JSON.stringify recurses: arguments nested thousands deep cannot be written at all.
      if (error instanceof RangeError) {
        return Promise.reject(
          new McpError(ErrorCode.InvalidParams, 'the request is nested too deeply to send to the server'),
        );
      }
      return Promise.reject(error);
    }
    this.#cork(stdin);
    return new Promise((resolve) => {
      if (stdin.write(json)) resolve();
      else stdin.once('drain', resolve);
    });
  }

  #cork(stdin: Writable): void {
    if (this.#corked || !stdin.writable) return;
    this.#corked = true;
    stdin.cork();
    // After this turn's I/O callbacks: every call that arrived in it goes in one write.
    setImmediate(() => {
      this.#corked = false;
      stdin.uncork();
    });
  }

  async close(): Promise<void> {
    const child = this.#child.process;
    if (this.#holding) {
      // The child's close waits for its stdout to be read to the end.
      clearTimeout(this.#holding);
      this.#holding = null;
      child.stdout?.resume();
    }
    if (this.#live) {
      this.#live = false;
      const exited = new Promise<void>((resolve) => {
        if (this.#child.hasClosed()) resolve();
        else child.once('close', () => resolve());
      });
      const wait = () =>
        Promise.race([exited, new Promise<void>((resolve) => setTimeout(resolve, CLOSE_WAIT_MS).unref())]);
      try {
        child.stdin?.end();
      } catch {
        // Already gone: the waits below see it.
      }
      await wait();
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await wait();
      }
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
    this.#lines.clear();
  }
}

/** The method of a parsed notification (a method and no id); null for anything else. */
function notificationMethod(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const { method } = value as { method?: unknown };
  return typeof method === 'string' && !('id' in value) ? method : null;
}
