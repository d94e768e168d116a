/**
 * A `Transport` around another (composed, never patched) that hands the SDK's protocol an
 * answer (a JSON-RPC result or error) one microtask after the messages read before it.
 *
 * Why: the SDK's `Protocol` handles a notification in a microtask
 * (`Promise.resolve().then(handler)`) but an answer at once, and the answer removes its
 * call's progress handler. A progress notification read in the same breath as its call's
 * answer (a server reports its last step and answers in one write) was therefore handled
 * after the answer and dropped as "a progress notification for an unknown token"
 * (typescript-sdk issue 2580): the agent, or the UI's progress bar, never saw the last step.
 * Handing the answer on a microtask later puts it after the notifications already queued,
 * in the order the server sent them. A close waits its turn the same way, so an answer read
 * just before the stream ended is not refused as "connection closed".
 * @module
 */
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, MessageExtraInfo } from '@modelcontextprotocol/sdk/types.js';
import { messageKind } from './message-kind.js';

/** Delegates everything to the inner transport; answers and the close go up a microtask late. */
export class ProgressBeforeAnswer implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void;
  readonly #inner: Transport;

  constructor(inner: Transport) {
    this.#inner = inner;
  }

  get sessionId(): string | undefined {
    return this.#inner.sessionId;
  }

  setProtocolVersion(version: string): void {
    this.#inner.setProtocolVersion?.(version);
  }

  start(): Promise<void> {
    // The inner transport is ours to drive, as the SDK's client drives the transport it is given.
    this.#inner.onerror = (error) => this.onerror?.(error);
    this.#inner.onclose = () => queueMicrotask(() => this.onclose?.());
    this.#inner.onmessage = (message, extra) => {
      // The inner transport checked it: its keys say whether it is an answer.
      const kind = messageKind(message);
      if (kind !== 'result' && kind !== 'error') {
        this.onmessage?.(message, extra);
        return;
      }
      queueMicrotask(() => {
        try {
          this.onmessage?.(message, extra);
        } catch (error) {
          this.onerror?.(error as Error);
        }
      });
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
