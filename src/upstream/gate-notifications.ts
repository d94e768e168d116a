/**
 * The notification rate limit on a remote upstream's transport (issue 17): a `Transport` of
 * ours around the SDK's Streamable HTTP or SSE transport (composed, never patched), which
 * drops each notification its gate refuses before the client dispatches it. The SDK's
 * transport has parsed it by then; its handlers, the audit and the relay never see it.
 * @module
 */
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';
import type { NotificationGate } from './notification-limits.js';

/** `transport` behind `gate`; `transport` itself when there is no gate. */
export function gateNotifications(transport: Transport, gate: NotificationGate | undefined): Transport {
  return gate ? new GatedTransport(transport, gate) : transport;
}

/** Delegates everything to the inner transport; filters what it hands up. */
class GatedTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;
  readonly #inner: Transport;
  readonly #gate: NotificationGate;

  constructor(inner: Transport, gate: NotificationGate) {
    this.#inner = inner;
    this.#gate = gate;
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
      if ('method' in message && !('id' in message) && !this.#gate.admit(message.method)) return;
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
