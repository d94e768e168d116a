/**
 * The stdio transport of one upstream (S6) over an already spawned child ({@link spawnStdio}),
 * on the SDK's `Transport` interface, the SDK's line format and message schemas. It
 * exists because the SDK's `StdioClientTransport` spawns in `start()`, after the SDK has
 * loaded; ours lets the child start first (ADR 015 §8), and reads lines without copying
 * and checks each by its shape (§10). Behaves as the SDK's does: same close sequence,
 * same errors.
 * @module
 */
import type { Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, type JSONRPCMessage, type JSONRPCRequest, McpError } from '@modelcontextprotocol/sdk/types.js';
import { UnreadableLineError, UpstreamAnswerTooLargeError } from '../errors.js';
import { messageKind } from '../protocol/message-kind.js';
import { parseMessage } from '../protocol/parse-message.js';
import { limitOutgoing, type OutgoingLimit } from './limit-outgoing.js';
import { type CutLine, parseLine, wholeLine } from './long-strings.js';
import type { NotificationGate } from './notification-limits.js';
import { peekNotificationMethod } from './peek-method.js';
import { cancelledRequestId, PendingAnswers } from './pending-answers.js';
import type { StdioChild } from './spawn-stdio.js';
import { LineSplitter } from './split-lines.js';

/** How long `close()` waits for the child after ending its stdin (the SDK's), and by default after SIGTERM. */
const CLOSE_WAIT_MS = 2_000;
/** How much of an unreadable line its error quotes. */
const EXCERPT_CHARS = 80;

/** Options of {@link ChildStdioTransport}. */
export type ChildStdioOptions = {
  /** The server's name, for the error a message over the bound gives. */
  readonly server: string;
  /** The longest line (message) read from the child (`maxAnswerBytes`). */
  readonly maxAnswerBytes: number;
  /** The largest message written to the child (`maxMessageBytes`): a larger one is refused unsent (X8). */
  readonly maxMessageBytes?: number | undefined;
  /** Rate-limits the child's notifications: one refused is dropped before it is parsed (issue 17). */
  readonly gate?: NotificationGate | undefined;
  /**
   * While notifications are dropped, stdout is read at most this fast (bytes a second): a
   * flooding child waits on its pipe instead of being read and dropped as fast as it writes.
   */
  readonly floodReadBytesPerSecond?: number | undefined;
  /** Between SIGTERM and SIGKILL on close (`shutdown.graceMs`); default 2 s. */
  readonly killGraceMs?: number | undefined;
};

/**
 * A transport on `child`'s stdin and stdout that writes the messages sent in one turn of
 * the event loop in one write while requests are in flight: concurrent calls share a syscall
 * (and a wake-up of the child); a message with none in flight is written at once.
 * A request's `send` settles when its answer is read; a line over `maxAnswerBytes` fails
 * every request in flight with that bound (which line it answered cannot be known) and
 * closes the transport. A message over `maxMessageBytes` is refused unsent (X8), measured
 * on the one serialization that would have been written (issue 20).
 */
export class ChildStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  readonly #child: StdioChild;
  readonly #lines: LineSplitter;
  readonly #pending = new PendingAnswers();
  readonly #gate: NotificationGate | null;
  readonly #floodReadBytesPerSecond: number;
  readonly #limit: OutgoingLimit | null;
  readonly #killGraceMs: number;
  readonly #onLine = (line: string | CutLine): void => this.#read(line);
  #live = false;
  #ending = false;
  #closeTold = false;
  #failure: Error | null = null;
  #corked = false;
  #dropped = false;
  #holding: NodeJS.Timeout | null = null;

  constructor(child: StdioChild, options?: ChildStdioOptions) {
    this.#child = child;
    this.#lines = options
      ? new LineSplitter(
          options.maxAnswerBytes,
          () => new UpstreamAnswerTooLargeError(options.server, options.maxAnswerBytes, true),
        )
      : new LineSplitter();
    this.#gate = options?.gate ?? null;
    this.#floodReadBytesPerSecond = options?.floodReadBytesPerSecond ?? 1024 * 1024;
    this.#killGraceMs = options?.killGraceMs ?? CLOSE_WAIT_MS;
    const maxBytes = options?.maxMessageBytes;
    this.#limit = options && maxBytes !== undefined ? { server: options.server, maxBytes } : null;
  }

  #admit(method: string): boolean {
    if (this.#gate?.admit(method) !== false) return true;
    this.#dropped = true;
    return false;
  }

  // A chunk that had drops is paid for in time: stdout rests as long as the chunk is worth.
  #holdBack(bytes: number): void {
    const stdout = this.#child.stdout;
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
  #read(line: string | CutLine): void {
    const text = typeof line === 'string' ? line : line.text;
    const peeked = this.#gate ? peekNotificationMethod(text) : null;
    if (peeked !== null && !this.#admit(peeked)) return;
    let message: JSONRPCMessage;
    try {
      const value: unknown = parseLine(line);
      const method = this.#gate && peeked === null ? notificationMethod(value) : null;
      if (method !== null && !this.#admit(method)) return;
      message = parseMessage(value);
    } catch (error) {
      const reason = error instanceof SyntaxError ? 'not JSON' : 'not a JSON-RPC message';
      const whole = wholeLine(line);
      this.onerror?.(new UnreadableLineError(reason, JSON.stringify(whole.slice(0, EXCERPT_CHARS)), whole.length));
      return;
    }
    // Checked just above: its keys say what it is (no second zod parse).
    const kind = messageKind(message);
    if ((kind === 'result' || kind === 'error') && 'id' in message && message.id !== undefined) {
      this.#pending.answered(message.id);
    }
    try {
      this.onmessage?.(message);
    } catch (error) {
      this.onerror?.(error as Error);
    }
  }

  /** Why the transport gave up on the child (a message over the bound), or null. */
  get failure(): Error | null {
    return this.#failure;
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
    this.#ending = true;
    child.on('error', (error) => this.onerror?.(error));
    child.stdin?.on('error', (error) => this.onerror?.(error));
    this.#child.stdout?.on('error', (error) => this.onerror?.(error));
    this.#child.readStdout((chunk) => {
      // Given up on, or closing: what the child still writes is not read.
      if (!this.#live) return;
      this.#dropped = false;
      try {
        this.#lines.push(chunk, this.#onLine);
      } catch (error) {
        this.#fail(error as Error);
      }
      if (this.#dropped) this.#holdBack(chunk.length);
    });
    const closed = () => {
      this.#live = false;
      this.#tellClosed();
    };
    // A child that exited while the SDK loaded: its output went first (above), then its close.
    if (this.#child.hasClosed()) setImmediate(closed);
    else this.#child.onceClosed(closed);
  }

  send(message: JSONRPCMessage): Promise<void> {
    let json: string;
    try {
      // What the SDK's `serializeMessage` writes, a line; serialized once, checked and written.
      json = JSON.stringify(message);
    } catch (error) {
      // JSON.stringify recurses: arguments nested thousands deep cannot be written at all.
      if (error instanceof RangeError) {
        return Promise.reject(
          new McpError(ErrorCode.InvalidParams, 'the request is nested too deeply to send to the server'),
        );
      }
      return Promise.reject(error);
    }
    const refused = this.#limit && limitOutgoing(json, this.#limit);
    if (refused) return Promise.reject(refused);
    const stdin = this.#live ? this.#child.process.stdin : null;
    if (!stdin) return Promise.reject(this.#failure ?? new Error('Not connected'));
    // A message with no request in flight goes at once; while some are, what comes in one turn
    // of the loop goes in one write (fewer wake-ups of the child under load).
    if (this.#pending.size > 0) this.#cork(stdin);
    const written = new Promise<void>((resolve) => {
      if (stdin.write(`${json}\n`)) resolve();
      else stdin.once('drain', resolve);
    });
    // The SDK built it: its keys say what it is (no zod parse per message sent).
    if (messageKind(message) === 'request') return this.#pending.track((message as JSONRPCRequest).id);
    // A cancelled request gets no answer (the spec says it should not): nothing waits for one.
    const cancelled = cancelledRequestId(message);
    if (cancelled !== undefined) this.#pending.answered(cancelled);
    return written;
  }

  /** Give up on the child: every request in flight fails with `error`, then the transport closes. */
  #fail(error: Error): void {
    if (!this.#live) return;
    this.#live = false;
    this.#failure = error;
    this.#pending.failAll(error);
    this.onerror?.(error);
    // After the SDK has taken each request's failure: told first, it would fail them as "Connection closed".
    setImmediate(() => this.#tellClosed());
    this.close().catch(() => undefined);
  }

  #tellClosed(): void {
    if (this.#closeTold) return;
    this.#closeTold = true;
    this.#pending.settleAll();
    this.onclose?.();
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
      this.#child.stdout?.resume();
    }
    if (this.#ending) {
      this.#ending = false;
      this.#live = false;
      const exited = new Promise<void>((resolve) => {
        this.#child.onceClosed(resolve);
      });
      const wait = (ms: number) =>
        Promise.race([exited, new Promise<void>((resolve) => setTimeout(resolve, ms).unref())]);
      // MCP's stdio shutdown: stdin closed first, SIGTERM if it has not exited, SIGKILL after the grace.
      try {
        child.stdin?.end();
      } catch {
        // Already gone: the waits below see it.
      }
      await wait(CLOSE_WAIT_MS);
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        // A stopped child acts on it only once it runs again.
        child.kill('SIGCONT');
        await wait(this.#killGraceMs);
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
