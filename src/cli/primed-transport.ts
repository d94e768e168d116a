/**
 * A started SDK transport handed on with the messages already read from it: `bnity mcp
 * serve --stdio` reads the client's first message to tell the protocol eras apart, then
 * gives the stream to the server of that era, which sees every message from the first.
 * @module
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** `inner`, started, with `read` delivered first once the new owner starts it. */
export class PrimedTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private started = false;

  /** Sees every message from the client before its owner does (read-only). */
  observe: ((message: JSONRPCMessage) => void) | null = null;

  /**
   * Runs once the stream has closed, after its owner's `onclose`: the one hook for whoever
   * handed the transport on (issue 20: nobody re-wraps the `onclose` its owner set).
   */
  afterClose: (() => void) | null = null;

  constructor(
    private readonly inner: Transport,
    private readonly read: JSONRPCMessage[],
  ) {
    inner.onmessage = (message) => {
      if (!this.started) {
        this.read.push(message);
        return;
      }
      this.observe?.(message);
      this.onmessage?.(message);
    };
    inner.onclose = () => {
      this.onclose?.();
      this.afterClose?.();
    };
    inner.onerror = (error) => this.onerror?.(error);
  }

  async start(): Promise<void> {
    if (this.started) throw new Error('PrimedTransport already started');
    this.started = true;
    // After the owner's start() returns: it may still be wiring itself up.
    queueMicrotask(() => {
      for (const message of this.read.splice(0)) {
        this.observe?.(message);
        this.onmessage?.(message);
      }
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.inner.send(message);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

/** Start `transport` and resolve with its first message (null: it closed first); later ones wait in `read`. */
export function readFirstMessage(
  transport: Transport,
): Promise<{ first: JSONRPCMessage | null; read: JSONRPCMessage[] }> {
  const read: JSONRPCMessage[] = [];
  return new Promise((resolve, reject) => {
    transport.onmessage = (message) => {
      read.push(message);
      if (read.length === 1) resolve({ first: message, read });
    };
    transport.onclose = () => resolve({ first: null, read });
    transport.start().catch(reject);
  });
}
