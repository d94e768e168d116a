/**
 * The service side of the 2025-11-25 stdio bridge (ADR 024): an SDK `Transport` over the
 * SDK's Streamable HTTP client transport that outlives its HTTP session. The service ends a
 * session that stays quiet for `gateway.sessionIdleMs` (30 minutes); a desktop client that
 * launched `bnity mcp serve --stdio` knows nothing of that session and must not lose its
 * connection. So when the service answers 404 for the session (on a request, or on the
 * standalone stream's reconnect), a new transport opens a new session and the client's own
 * set-up is sent again — its `initialize` (capabilities, clientInfo), `notifications/initialized`,
 * its last `logging/setLevel` and its `resources/subscribe`s — before the message that met the
 * 404 goes again. The answers to these replays stay here; the client sees none of it.
 * @module
 */
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  isInitializeRequest,
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';

/** Options of {@link ResumingTransport}. */
export type ResumingTransportOptions = {
  /** A fresh transport to the service (a new one per session). */
  open(): StreamableHTTPClientTransport;
  /** Whether `error` says the session is gone (the service answered 404 for it). */
  sessionGone(error: unknown): boolean;
  /** A new session replaced a lost one; `id` is its session id. */
  onResumed?(id: string | undefined): void;
};

/** What the client set up on its session, to be set up again on a new one. */
type SetUp = {
  initialize: JSONRPCRequest | null;
  /** The service answered the client's initialize: there is a session worth resuming. */
  answered: boolean;
  initialized: boolean;
  level: unknown;
  subscriptions: Set<string>;
};

/** Ids of the bridge's own replays: a client's ids are never strings of this shape. */
const REPLAY_ID = 'boternity-bridge-resume-';

/** A Streamable HTTP client transport that opens a new session when the service ends its own. */
export class ResumingTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private inner: StreamableHTTPClientTransport;
  private readonly setUp: SetUp = {
    initialize: null,
    answered: false,
    initialized: false,
    level: undefined,
    subscriptions: new Set(),
  };
  private initializeId: RequestId | undefined;
  private protocolVersion: string | undefined;
  private resuming: Promise<void> | null = null;
  private readonly replays = new Map<string, { resolve(result: unknown): void; reject(error: Error): void }>();
  private replayCount = 0;
  private closed = false;

  constructor(private readonly options: ResumingTransportOptions) {
    this.inner = options.open();
  }

  /** The service has answered the client's `initialize`: a session exists (and is resumed if lost). */
  get answered(): boolean {
    return this.setUp.answered;
  }

  /** The current session's id. */
  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  async start(): Promise<void> {
    this.wire(this.inner);
    await this.inner.start();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    this.record(message);
    if (this.resuming) await this.resuming;
    try {
      await this.inner.send(message);
    } catch (error) {
      if (!this.canResume(error)) throw error;
      try {
        await this.resume();
      } catch (failed) {
        this.fail(failed);
        throw failed;
      }
      await this.inner.send(message);
    }
  }

  /** End the current session on the service (DELETE). */
  terminateSession(): Promise<void> {
    return this.inner.terminateSession();
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const [, pending] of this.replays) pending.reject(new Error('the bridge is closing'));
    this.replays.clear();
    await this.inner.close();
  }

  /** Remember what the client sets up on its session. */
  private record(message: JSONRPCMessage): void {
    if (isInitializeRequest(message) && isJSONRPCRequest(message)) {
      this.setUp.initialize = message;
      this.initializeId = message.id;
      return;
    }
    if (!('method' in message)) return;
    const params = (message.params ?? {}) as { level?: unknown; uri?: unknown };
    if (message.method === 'notifications/initialized') this.setUp.initialized = true;
    else if (message.method === 'logging/setLevel') this.setUp.level = params.level;
    else if (message.method === 'resources/subscribe' && typeof params.uri === 'string')
      this.setUp.subscriptions.add(params.uri);
    else if (message.method === 'resources/unsubscribe' && typeof params.uri === 'string')
      this.setUp.subscriptions.delete(params.uri);
  }

  private canResume(error: unknown): boolean {
    return !this.closed && this.setUp.answered && this.options.sessionGone(error);
  }

  private wire(inner: StreamableHTTPClientTransport): void {
    inner.onmessage = (message) => {
      if ((isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) && typeof message.id === 'string') {
        const replay = this.replays.get(message.id);
        if (replay) {
          this.replays.delete(message.id);
          if (isJSONRPCResultResponse(message)) replay.resolve(message.result);
          else replay.reject(new Error(message.error.message));
          return;
        }
      }
      if (isJSONRPCResultResponse(message) && message.id === this.initializeId && !this.setUp.answered) {
        this.setUp.answered = true;
        // The SDK transport sends the negotiated version on every later request.
        const version = (message.result as { protocolVersion?: unknown }).protocolVersion;
        if (typeof version === 'string') {
          this.protocolVersion = version;
          inner.setProtocolVersion(version);
        }
      }
      this.onmessage?.(message);
    };
    inner.onerror = (error) => {
      // The standalone stream's reconnect met a 404: the service ended the session while the client was quiet.
      if (this.canResume(error)) {
        this.resume().catch((failed: unknown) => this.fail(failed));
        return;
      }
      this.onerror?.(error);
    };
    inner.onclose = () => {
      if (inner === this.inner && !this.resuming) this.onclose?.();
    };
  }

  /** Open a new session once, however many messages met the 404. */
  private resume(): Promise<void> {
    this.resuming ??= this.reopen().finally(() => {
      this.resuming = null;
    });
    return this.resuming;
  }

  private async reopen(): Promise<void> {
    const old = this.inner;
    old.onmessage = undefined;
    old.onerror = undefined;
    old.onclose = undefined;
    // Its session is gone: stop its stream's reconnects, without a DELETE.
    void old.close().catch(() => undefined);
    const inner = this.options.open();
    this.inner = inner;
    this.wire(inner);
    await inner.start();
    const initialize = this.setUp.initialize as JSONRPCRequest;
    const result = (await this.replay(inner, initialize.method, initialize.params)) as { protocolVersion?: unknown };
    const version = typeof result.protocolVersion === 'string' ? result.protocolVersion : this.protocolVersion;
    if (version) inner.setProtocolVersion(version);
    if (this.setUp.initialized) await inner.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    // Best effort after the handshake: a level or a resource the new session refuses is left out.
    if (this.setUp.level !== undefined)
      await this.replay(inner, 'logging/setLevel', { level: this.setUp.level }).catch(() => undefined);
    for (const uri of this.setUp.subscriptions)
      await this.replay(inner, 'resources/subscribe', { uri }).catch(() => undefined);
    this.options.onResumed?.(inner.sessionId);
  }

  /** Send one of the client's set-up requests again under an id of the bridge's; resolves with its result. */
  private async replay(inner: StreamableHTTPClientTransport, method: string, params: unknown): Promise<unknown> {
    const id = `${REPLAY_ID}${++this.replayCount}`;
    const answered = new Promise<unknown>((resolve, reject) => this.replays.set(id, { resolve, reject }));
    try {
      await inner.send({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) } as JSONRPCMessage);
    } catch (error) {
      this.replays.delete(id);
      throw error;
    }
    return answered;
  }

  /** A resume that failed ends this transport: the service is gone or refuses the view now. */
  private fail(error: unknown): void {
    if (this.closed) return;
    this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    // Its inner transport's close tells the owner (onclose).
    void this.close();
  }
}
