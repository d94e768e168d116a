/**
 * The transport of a remote upstream (S6, X8): the SDK's Streamable HTTP or SSE transport,
 * composed with our {@link createBoundedFetch}, on the SDK's `Transport` interface. It ties
 * each request to the HTTP exchange that carries its answer: the request's `send` settles
 * when the answer came, and rejects (so the SDK fails that call at once, with the cause)
 * when the answer was over `maxAnswerBytes` or its stream ended first; a call that ended
 * (timeout, cancellation) aborts its HTTP request. Over SSE one stream carries every answer:
 * when it ends or is cut at the bound, every call in flight fails with the cause and the
 * connection closes.
 * @module
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { FetchLike, Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import { AnswerStreamError, UpstreamAnswerTooLargeError, UpstreamRedirectError } from '../errors.js';
import { describeStreamFailure } from './answer-errors.js';
import { createBoundedFetch } from './bounded-fetch.js';
import { Exchange } from './exchange.js';
import { limitOutgoing, type OutgoingLimit } from './limit-outgoing.js';
import { cancelledRequestId } from './pending-answers.js';

/**
 * The request whose `send` is running, for the fetch the SDK makes inside it (and for the
 * resumptions it schedules from there). One store for the process: every AsyncLocalStorage
 * instance costs each async operation of the process something on Node 20.
 */
const exchangeScope = new AsyncLocalStorage<Exchange | undefined>();

/** Options of {@link RemoteTransport}. */
export type RemoteTransportOptions = {
  readonly kind: 'http' | 'sse';
  readonly server: string;
  readonly maxAnswerBytes: number;
  /** The largest message sent to the server (`maxMessageBytes`): a larger one is refused unsent (X8). */
  readonly maxMessageBytes?: number | undefined;
  /** Builds the SDK transport over the fetch it is to use. */
  readonly create: (fetch: FetchLike) => Transport;
};

/** A remote transport whose answers are bounded and whose requests end with their calls. */
export class RemoteTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];
  /** The SDK transport inside (for what only it does: ending a Streamable HTTP session). */
  readonly inner: Transport;
  readonly #kind: 'http' | 'sse';
  readonly #server: string;
  readonly #exchanges = new Map<number, Exchange>();
  readonly #limit: OutgoingLimit | null;
  #failed = false;
  #closing = false;

  constructor({ kind, server, maxAnswerBytes, maxMessageBytes, create }: RemoteTransportOptions) {
    this.#kind = kind;
    this.#server = server;
    this.#limit = maxMessageBytes === undefined ? null : { server, maxBytes: maxMessageBytes };
    const fetch = createBoundedFetch({
      maxBytes: maxAnswerBytes,
      tooLarge: () => new UpstreamAnswerTooLargeError(server, maxAnswerBytes, kind === 'sse'),
      owner: () => exchangeScope.getStore(),
      onStreamEnd: (error) => this.#streamEnded(error),
      redirected: (target) => new UpstreamRedirectError(server, target),
    });
    this.inner = create(fetch);
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  async start(): Promise<void> {
    this.inner.onmessage = (message, extra) => {
      if (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) {
        this.#exchanges.get(Number(message.id))?.answered();
      }
      this.onmessage?.(message, extra);
    };
    this.inner.onerror = (error) => {
      // The fallout of aborting a call's request (its stream "disconnected"), or of a stream
      // already reported ended, is no news: the cause was told once.
      if (this.#failed || exchangeScope.getStore()?.quiet) return;
      this.onerror?.(error);
    };
    let told = false;
    this.inner.onclose = () => {
      // The SDK's transports tell every close(), and ours may come twice (the stream's end, then the session's).
      if (told) return;
      told = true;
      for (const exchange of this.#exchanges.values()) exchange.settle();
      this.#exchanges.clear();
      this.onclose?.();
    };
    await this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const refused = this.#refuse(message);
    if (refused) return Promise.reject(refused);
    if (isJSONRPCRequest(message)) return this.#sendRequest(message.id, message, options);
    const sent = exchangeScope.run(undefined, () => this.inner.send(message, options));
    // The SDK cancels a call that timed out or was cancelled: its HTTP request goes with it.
    const cancelled = cancelledRequestId(message);
    if (cancelled !== undefined) this.#exchanges.get(Number(cancelled))?.endCall();
    return sent;
  }

  // The SDK's transport writes the body itself: here the size is measured on a serialization
  // of our own (the remote path's second one; the stdio path, the measured one, has one).
  #refuse(message: JSONRPCMessage): Error | null {
    if (!this.#limit) return null;
    let json: string;
    try {
      json = JSON.stringify(message);
    } catch {
      // Not serializable at all (nested too deeply): the SDK's send says how.
      return null;
    }
    return limitOutgoing(json, this.#limit);
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  close(): Promise<void> {
    this.#closing = true;
    return this.inner.close();
  }

  async #sendRequest(id: RequestId, message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const key = Number(id);
    const exchange: Exchange = new Exchange({
      awaitsStream: this.#kind === 'sse',
      failure: (error) => this.#answerFailure(error),
      onSettled: () => {
        if (this.#exchanges.get(key) === exchange) this.#exchanges.delete(key);
      },
    });
    this.#exchanges.set(key, exchange);
    exchange.traceparent = traceparentOf(message);
    try {
      await exchangeScope.run(exchange, () => this.inner.send(message, options));
    } catch (error) {
      const broken = exchange.bodyError;
      exchange.settle();
      // A body that failed (over the bound, cut off) says more than the SDK's read of it.
      throw broken ? this.#answerFailure(broken) : error;
    }
    exchange.sent();
    return exchange.settled;
  }

  /** What a call gets when the stream of its answer ended first (`error` null: it ended cleanly). */
  #answerFailure(error: Error | null): Error {
    if (error instanceof UpstreamAnswerTooLargeError) return error;
    const what =
      error === null
        ? 'ended the answer stream before answering'
        : `broke off the answer stream (${describeStreamFailure(error)}) before answering`;
    return new AnswerStreamError(this.#server, what, { cause: error ?? undefined });
  }

  /** A stream no call owns ended: over SSE that is every answer's stream, so the connection is over. */
  #streamEnded(error: Error | null): void {
    // Ours to close: the stream ending then is no news.
    if (this.#kind !== 'sse' || this.#failed || this.#closing) return;
    this.#failed = true;
    const failure =
      error instanceof UpstreamAnswerTooLargeError
        ? error
        : new AnswerStreamError(
            this.#server,
            error ? `broke off its event stream (${describeStreamFailure(error)})` : 'ended its event stream',
            { cause: error ?? undefined },
          );
    for (const exchange of this.#exchanges.values()) exchange.fail(failure);
    this.onerror?.(failure);
    // After the SDK has taken each call's failure: closing first would fail them as "Connection closed".
    setImmediate(() => {
      this.close().catch(() => undefined);
    });
  }
}

/** The trace context a request carries in `_meta` (SEP-414), if it carries one. */
function traceparentOf(message: JSONRPCMessage): string | undefined {
  const value = (message as { params?: { _meta?: { traceparent?: unknown } } }).params?._meta?.traceparent;
  return typeof value === 'string' ? value : undefined;
}
