/**
 * An agent session's transport as its SDK `Server` connects to it, counting the agent's
 * activity (G6, X8): every message the agent sends marks the session active now, so the idle
 * sweep leaves it open. A transport of our own around the one the session is served on, so
 * that nothing re-wraps the callbacks the `Server` set on a transport it owns.
 * @module
 */
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';

/** `inner` with `onActivity` called before each incoming message is handed on. */
export function countActivity(inner: Transport, onActivity: () => void): Transport {
  return new ActivityTransport(inner, onActivity);
}

class ActivityTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  readonly #inner: Transport;

  constructor(inner: Transport, onActivity: () => void) {
    this.#inner = inner;
    // The inner transport is ours to drive, as the Server drives the transport it is given.
    inner.onclose = () => this.onclose?.();
    inner.onerror = (error) => this.onerror?.(error);
    inner.onmessage = (message, extra) => {
      onActivity();
      this.onmessage?.(message, extra);
    };
  }

  get sessionId(): string | undefined {
    return this.#inner.sessionId;
  }

  setProtocolVersion(version: string): void {
    this.#inner.setProtocolVersion?.(version);
  }

  start(): Promise<void> {
    return this.#inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return this.#inner.send(message, options);
  }

  close(): Promise<void> {
    return this.#inner.close();
  }
}
