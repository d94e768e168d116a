/**
 * The requests a transport has sent and not yet seen answered, each with the promise its
 * `send` returned: the SDK fails a request when that promise rejects, which is how a
 * transport that gives up on its stream fails the calls in flight with the real cause.
 * @module
 */
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js';

type Waiter = { resolve(): void; reject(error: Error): void };

/** Requests in flight, by id (the SDK's ids are numbers; an answer's id is compared as one). */
export class PendingAnswers {
  readonly #waiting = new Map<number, Waiter>();

  /** How many requests are in flight. */
  get size(): number {
    return this.#waiting.size;
  }

  /** A promise that resolves when `id` is answered, or rejects on {@link PendingAnswers.failAll}. */
  track(id: RequestId): Promise<void> {
    const settled = new Promise<void>((resolve, reject) => this.#waiting.set(Number(id), { resolve, reject }));
    // The SDK only catches it; one nobody takes is no crash.
    settled.catch(() => undefined);
    return settled;
  }

  /** `id` was answered. */
  answered(id: RequestId): void {
    const key = Number(id);
    this.#waiting.get(key)?.resolve();
    this.#waiting.delete(key);
  }

  /** Every request in flight fails with `error`. */
  failAll(error: Error): void {
    for (const waiter of this.#waiting.values()) waiter.reject(error);
    this.#waiting.clear();
  }

  /** Forget every request in flight (the transport closed: the SDK fails them itself). */
  settleAll(): void {
    for (const waiter of this.#waiting.values()) waiter.resolve();
    this.#waiting.clear();
  }
}

/** The request a `notifications/cancelled` names, if `message` is one. */
export function cancelledRequestId(message: JSONRPCMessage): RequestId | undefined {
  if (!('method' in message) || message.method !== 'notifications/cancelled' || 'id' in message) return undefined;
  const id = (message.params as { requestId?: unknown } | undefined)?.requestId;
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
}
