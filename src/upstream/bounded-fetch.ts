/**
 * The `fetch` the SDK's remote transports are given (their `FetchLike` option): every
 * response body is counted as it streams ({@link boundBody}) and the request is aborted at
 * the bound, so the socket closes and nothing more is downloaded; a request made for a
 * call is also aborted when that call ends, and the end of its answer stream is told to it.
 * Redirects are followed only within the origin ({@link withinOrigin}): one to another origin
 * fails a request of the MCP transport itself (a POST, DELETE or event stream) with one line
 * naming the target, and is handed back unfollowed to anything else (OAuth discovery moves
 * on to its next URL), so the config's headers and a JSON-RPC body never go to another host.
 * @module
 */

import { mediaTypeEssence } from '@modelcontextprotocol/sdk/shared/mediaType.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { boundBody } from './bound-body.js';
import { linkSignals } from './link-signals.js';
import { keepsMethod, redirectTarget, shownTarget, withinOrigin } from './redirect-target.js';

/** The call a request is made for: ending it aborts the request; it hears how the answer stream ended. */
export type FetchOwner = {
  readonly signal: AbortSignal;
  /** Its answer comes on an event stream (read after the transport's `send` returned). */
  streaming(): void;
  /** The response body ended (`error` null) or failed; `resumable`: an event stream that carried event ids. */
  ended(error: Error | null, resumable: boolean): void;
  /** The request failed or was refused (an HTTP error status): no answer comes from it. */
  failed(error: Error): void;
  /** The trace context its message carries in `_meta` (tracing on): sent as the `traceparent` header too (issue 21). */
  readonly traceparent?: string | undefined;
};

/** Options of {@link createBoundedFetch}. */
export type BoundedFetchOptions = {
  readonly maxBytes: number;
  /** The error a body over `maxBytes` fails with. */
  readonly tooLarge: () => Error;
  /** The call the current request is made for, if any (an async context of the caller's). */
  readonly owner: () => FetchOwner | undefined;
  /** An event stream no call owns (the session's own stream) ended or failed. */
  readonly onStreamEnd?: ((error: Error | null) => void) | undefined;
  /** The error a request of the transport redirected to another origin (`target`, shown) fails with. */
  readonly redirected?: ((target: string) => Error) | undefined;
};

/** As fetch's own limit would be far too many here: a moved endpoint needs one or two. */
const MAX_REDIRECTS = 5;

/** A fetch that bounds what it reads and follows its owner's end. */
export function createBoundedFetch({
  maxBytes,
  tooLarge,
  owner,
  onStreamEnd,
  redirected = (target) => new Error(`redirected to ${target}, another origin: not followed`),
}: BoundedFetchOptions): FetchLike {
  return async (url, init) => {
    const call = owner();
    // A resumption asked for after its call ended: nothing to fetch for it.
    call?.signal.throwIfAborted();
    // Ours, not AbortSignal.any: the transport's own signal lives as long as the connection,
    // and each request's listener on it is removed when its body is done (ADR 009).
    const controller = new AbortController();
    const linked = linkSignals([init?.signal ?? undefined, call?.signal, controller.signal]);
    // Redirects are looked at here, whatever the caller asked: `manual` (the SDK follows
    // within the origin itself) gets them back, anyone else has them followed within it.
    const follow = init?.redirect === undefined || init.redirect === 'follow';
    const request: RequestInit = {
      ...init,
      ...(call?.traceparent ? { headers: withTraceparent(init?.headers, call.traceparent) } : {}),
      redirect: init?.redirect === 'error' ? 'error' : 'manual',
      signal: linked.signal,
    };
    let response: Response;
    try {
      let at = new URL(url);
      for (let hops = 0; ; hops++) {
        response = await fetch(at, request);
        const to = redirectTarget(response, at);
        if (to === null) break;
        if (!withinOrigin(at, to) && ownRequest(init)) {
          await response.body?.cancel();
          throw redirected(shownTarget(to));
        }
        if (!follow || hops === MAX_REDIRECTS || !withinOrigin(at, to) || !keepsMethod(response.status, init?.method))
          break;
        await response.body?.cancel();
        at = to;
      }
    } catch (error) {
      linked.unlink();
      call?.failed(error instanceof Error ? error : new Error(String(error)));
      throw error;
    }
    if (call && !response.ok) call.failed(new Error(`HTTP ${response.status}`));
    if (!response.body) {
      linked.unlink();
      return response;
    }
    const events = mediaTypeEssence(response.headers.get('content-type')) === 'text/event-stream';
    if (events && response.ok) call?.streaming();
    const body = boundBody(response.body, {
      maxBytes,
      events,
      tooLarge: () => {
        const error = tooLarge();
        // Aborting the request is what closes the socket: the rest is never downloaded.
        controller.abort(error);
        return error;
      },
      onDone: linked.unlink,
      onEnd: (error, resumable) => {
        if (call) call.ended(error, resumable);
        else if (events) onStreamEnd?.(error);
      },
    });
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

/** A request of the MCP transport itself (not OAuth discovery): a POST or DELETE, or the GET of an event stream. */
function ownRequest(init: RequestInit | undefined): boolean {
  if ((init?.method ?? 'GET').toUpperCase() !== 'GET') return true;
  return new Headers(init?.headers).get('accept')?.includes('text/event-stream') ?? false;
}

/** `headers` with the W3C `traceparent` header set (the one in the message's `_meta`, issue 21). */
function withTraceparent(headers: ConstructorParameters<typeof Headers>[0], traceparent: string): Headers {
  const merged = new Headers(headers);
  merged.set('traceparent', traceparent);
  return merged;
}
