/**
 * One request to a remote upstream, from its `send` to its answer (see {@link RemoteTransport}):
 * what its HTTP exchange tells ({@link FetchOwner}), and the promise its `send` returns,
 * settled when the answer came or the call ended, rejected when the answer cannot come.
 * @module
 */
import type { FetchOwner } from './bounded-fetch.js';

/** How an answer stream ended, waiting to be judged. */
type Ending = { readonly error: Error | null; readonly resumable: boolean };

/** Options of {@link Exchange}. */
export type ExchangeOptions = {
  /** The answer comes on a stream of its own once sent (SSE: the session's one stream). */
  readonly awaitsStream: boolean;
  /** What the call fails with when its answer stream ended first (`error` null: ended cleanly). */
  readonly failure: (error: Error | null) => Error;
  /** Called once when settled either way. */
  readonly onSettled: () => void;
};

/** A request in flight and the exchange carrying its answer. */
export class Exchange implements FetchOwner {
  readonly #controller = new AbortController();
  readonly signal = this.#controller.signal;
  /** The `_meta.traceparent` of its message, sent as the HTTP header too (set by the transport). */
  traceparent: string | undefined = undefined;
  /** Settles the request's `send`: resolves once answered (or ended), rejects when the answer cannot come. */
  readonly settled: Promise<void>;
  // Dropped once settled: a socket opened in its async context may outlive it by far, and
  // must not keep the transport (and the SDK client) reachable through these callbacks.
  #options: ExchangeOptions | null;
  #resolve: () => void = () => undefined;
  #reject: (error: Error) => void = () => undefined;
  #done = false;
  #sent = false;
  #streaming: boolean;
  #ending: Ending | null = null;
  #bodyError: Error | null = null;

  constructor(options: ExchangeOptions) {
    this.#options = options;
    this.#streaming = options.awaitsStream;
    this.settled = new Promise<void>((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
    // The SDK does not wait on a request's send; a rejection nobody takes is not a crash.
    this.settled.catch(() => undefined);
  }

  /** True once it was settled by aborting its request: what the aborted request reports is expected. */
  get quiet(): boolean {
    return this.#done && this.signal.aborted;
  }

  /** An event stream carries the answer (an SSE response to the POST). */
  streaming(): void {
    this.#streaming = true;
  }

  ended(error: Error | null, resumable: boolean): void {
    this.#ending = { error, resumable };
    if (error) this.#bodyError = error;
    this.#judgeSoon();
  }

  failed(error: Error): void {
    // Before `send` returned, its own rejection says it; after, a resumption failed.
    if (this.#sent) this.ended(error, false);
  }

  /** Why a response body of it failed, if one did. */
  get bodyError(): Error | null {
    return this.#bodyError;
  }

  /** The transport's `send` is over: a JSON answer has been delivered; a stream may still carry one. */
  sent(): void {
    this.#sent = true;
    if (!this.#streaming) this.settle();
    else this.#judgeSoon();
  }

  /** Its answer arrived. */
  answered(): void {
    this.settle();
  }

  /** The call ended (timeout, cancellation): its request is aborted, nothing more is read for it. */
  endCall(): void {
    if (this.#done) return;
    this.#controller.abort();
    this.settle();
  }

  /** Resolve, if nothing settled it yet. */
  settle(): void {
    if (this.#done) return;
    this.#done = true;
    this.#resolve();
    this.#release();
  }

  /** Reject with `error`, if nothing settled it yet; a resumption of its stream is refused. */
  fail(error: Error): void {
    if (this.#done) return;
    this.#done = true;
    this.#controller.abort(error);
    this.#reject(error);
    this.#release();
  }

  #release(): void {
    const options = this.#options;
    this.#options = null;
    options?.onSettled();
  }

  #judgeSoon(): void {
    if (this.#done || !this.#sent || this.#ending === null) return;
    // After the SDK has read what the stream held: the answer may be its last event.
    setImmediate(() => this.#judge());
  }

  #judge(): void {
    const ending = this.#ending;
    if (this.#done || ending === null) return;
    this.#ending = null;
    // Ended cleanly after an event id: the SDK resumes the stream (GET with Last-Event-ID).
    if (ending.error === null && ending.resumable) return;
    if (this.#options) this.fail(this.#options.failure(ending.error));
  }
}
