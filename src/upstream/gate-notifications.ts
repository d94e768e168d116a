/**
 * The notification rate limit of a remote upstream (issue 17), at two places that share one
 * gate: a `fetch` for the SDK's transport (its hook) that drops refused notification
 * events from every event stream before the SDK decodes and parses them
 * ({@link gateEventStream}), and a `Transport` of ours around the SDK's (composed, never
 * patched) for what reaches the client otherwise (an event that could not be told unparsed,
 * a JSON answer). A notification let through by the first is not counted again by the second.
 * @module
 */
import type { FetchLike, Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';
import { gateEventStream } from './gate-event-stream.js';
import type { NotificationGate } from './notification-limits.js';

/** The two halves of a remote connection's gate. */
export type RemoteGate = {
  /** The fetch to build the SDK transport with, over `base` (the fetch requests go through). */
  readonly over: (base: FetchLike) => FetchLike;
  /** The SDK transport behind the gate, for the client to connect to. */
  wrap(transport: Transport): Transport;
};

/** Both halves over `gate`. */
export function createRemoteGate(gate: NotificationGate): RemoteGate {
  // Notifications let through unparsed: the transport lets as many pass without asking again.
  let credits = 0;
  const admit = (method: string) => {
    if (!gate.admit(method)) return false;
    credits += 1;
    return true;
  };
  const spend = (method: string) => {
    if (credits === 0) return gate.admit(method);
    credits -= 1;
    return true;
  };
  return {
    over: (base) => async (url, init) => {
      const response = await base(url, init);
      const type = response.headers.get('content-type') ?? '';
      // A redirected stream keeps its own response (the SSE client reads where it went).
      if (!response.body || response.redirected || !type.includes('text/event-stream')) return response;
      const { status, statusText, headers } = response;
      return new Response(gateEventStream(response.body, admit), { status, statusText, headers });
    },
    wrap: (transport) => new GatedTransport(transport, spend),
  };
}

/** Delegates everything to the inner transport; filters what it hands up. */
class GatedTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;
  readonly #inner: Transport;
  readonly #admit: (method: string) => boolean;

  constructor(inner: Transport, admit: (method: string) => boolean) {
    this.#inner = inner;
    this.#admit = admit;
  }

  get sessionId(): string | undefined {
    return this.#inner.sessionId;
  }

  setProtocolVersion(version: string): void {
    this.#inner.setProtocolVersion?.(version);
  }

  start(): Promise<void> {
    // The inner transport is ours to drive, as the SDK's client drives the transport it is given.
    this.#inner.onclose = () => this.onclose?.();
    this.#inner.onerror = (error) => this.onerror?.(error);
    this.#inner.onmessage = (message, extra) => {
      if ('method' in message && !('id' in message) && !this.#admit(message.method)) return;
      this.onmessage?.(message, extra);
    };
    return this.#inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return this.#inner.send(message, options);
  }

  close(): Promise<void> {
    return this.#inner.close();
  }
}
