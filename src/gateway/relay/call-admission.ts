/**
 * Admission of the requests relayed to upstreams (issue 17, ADR 022): at most `perUpstream`
 * in flight on one upstream connection (a server's `maxConcurrentRequests` overrides it),
 * at most `perToken` of one token over all upstreams. A request over a cap waits, served
 * round-robin across tokens ({@link createFairQueue}); a token with `queuePerToken` waiting
 * already is refused at once with an error naming the caps. A wait ends when its request is
 * cancelled (its session ending included) or its time runs out. Under the caps a request
 * costs two map lookups and two counters.
 * @module
 */
import { type InFlightCap, InFlightCapError, InFlightWaitTimeoutError } from '../../errors.js';
import { createFairQueue, type FairQueue } from './fair-queue.js';
import { createLargeShare, type LargeShare } from './large-share.js';

/** `limits.inFlight` of the config. */
export type InFlightLimits = {
  readonly perUpstream: number;
  readonly perToken: number;
  readonly queuePerToken: number;
  /** Large requests ({@link isLargeRequest}) in flight on one upstream connection at once. */
  readonly largePerUpstream: number;
};

/** Where a request goes and whose it is. */
export type Place = {
  /** The upstream connection (see `connectionKey`). */
  readonly key: string;
  readonly server: string;
  /** Whose budget it counts against: a token id, `admin`, `bot:x`, `stdio`. */
  readonly token: string;
  /** The server's `maxConcurrentRequests`, if set. */
  readonly cap: number | undefined;
  /** Large arguments: also under `largePerUpstream` and the connection's {@link LargeShare}. */
  readonly large?: boolean | undefined;
  /** When it got its place (set by the admission). */
  since?: number;
};

/** One server's admission figures, for the metrics. */
export type ServerAdmission = {
  readonly server: string;
  readonly inFlight: number;
  readonly waiting: number;
  /** Requests that had to wait, since start. */
  readonly waited: number;
  /** Seconds they waited in all. */
  readonly waitSeconds: number;
  /** Requests refused at once, and those whose wait ran out. */
  readonly refused: number;
  readonly timedOut: number;
};

/** The caps of every relayed request. */
export type CallAdmission = {
  /**
   * Take a place for a request: null when taken at once; else a promise of the wait's end,
   * null when a place was taken, or the error that refused or ended it (no place held).
   */
  enter(place: Place, signal: AbortSignal, timeoutMs: number): Promise<Error | null> | null;
  /** Give back a place taken by `enter`; `answered`: the upstream answered it. */
  leave(place: Place, answered: boolean): void;
  /**
   * How long connection `key` has been busy without answering anything: since its last
   * answer, or since it last went from idle to busy. A connection answering other requests
   * is alive, however long one of them takes. Infinity when nothing is in flight on it.
   */
  quietFor(key: string): number;
  stats(): ServerAdmission[];
};

type Waiter = { readonly place: Place; readonly since: number; settle(error: Error | null): void };
type Upstream = {
  readonly server: string;
  inFlight: number;
  /** Of those, large ones, and their share of its time. */
  large: number;
  readonly share: LargeShare;
  /** Lets waiting large requests in once a rest is over. */
  rest: NodeJS.Timeout | null;
  cap: number;
  queue: FairQueue<Waiter> | null;
  /** When it last answered, or went busy, whichever is later. */
  heardAt: number;
};
type Token = { inFlight: number; waiting: number };
type Figures = { waited: number; waitMs: number; refused: number; timedOut: number };

/** Create the admission; `limits` is read at each request, so a reload applies to the next. */
export function createCallAdmission({
  limits,
  now = () => performance.now(),
}: {
  limits: () => InFlightLimits;
  now?: () => number;
}): CallAdmission {
  const upstreams = new Map<string, Upstream>();
  const tokens = new Map<string, Token>();
  const figures = new Map<string, Figures>();
  // Upstreams with requests waiting: a place freed anywhere may let one of them in.
  const crowded = new Set<Upstream>();
  const figuresOf = (server: string): Figures => {
    const found = figures.get(server);
    if (found) return found;
    const made = { waited: 0, waitMs: 0, refused: 0, timedOut: 0 };
    figures.set(server, made);
    return made;
  };
  const underTokenCap = (token: string) => (tokens.get(token)?.inFlight ?? 0) < limits().perToken;
  // A large request also waits for the upstream's large ones to be few enough.
  const roomFor = (place: Place, upstream: Upstream) =>
    !place.large || (upstream.large < limits().largePerUpstream && upstream.share.open(now()));
  const capOf = (place: Place) => place.cap ?? limits().perUpstream;
  const heldBy = (place: Place, upstream: Upstream): InFlightCap =>
    !roomFor(place, upstream)
      ? {
          what: `server "${place.server}"`,
          limit: limits().largePerUpstream,
          setting: 'limits.inFlight.largePerUpstream',
          large: true,
          ...(upstream.large < limits().largePerUpstream ? { pauseMs: upstream.share.opensIn(now()) } : {}),
        }
      : upstream.inFlight >= upstream.cap
        ? {
            what: `server "${place.server}"`,
            limit: upstream.cap,
            setting:
              place.cap === undefined
                ? 'limits.inFlight.perUpstream'
                : `mcpServers.${place.server}.maxConcurrentRequests`,
          }
        : { what: 'this token', limit: limits().perToken, setting: 'limits.inFlight.perToken' };
  // A shared connection's entry is kept (no allocation a request); a session's own goes when idle.
  const forget = (place: Place, upstream: Upstream, token: Token) => {
    if (upstream.inFlight === 0 && !upstream.queue?.size && place.key !== place.server) upstreams.delete(place.key);
    if (token.inFlight === 0 && token.waiting === 0) tokens.delete(place.token);
  };
  const drain = () => {
    for (const upstream of crowded) {
      const queue = upstream.queue as FairQueue<Waiter>;
      while (upstream.inFlight < upstream.cap) {
        const waiter = queue.take((key, next) => underTokenCap(key) && roomFor(next.place, upstream));
        if (!waiter) break;
        const token = tokens.get(waiter.place.token) as Token;
        if (upstream.inFlight === 0) upstream.heardAt = now();
        upstream.inFlight += 1;
        if (waiter.place.large) upstream.large += 1;
        waiter.place.since = now();
        token.inFlight += 1;
        token.waiting -= 1;
        figuresOf(upstream.server).waitMs += now() - waiter.since;
        waiter.settle(null);
      }
      if (queue.size === 0) crowded.delete(upstream);
      else wakeAfterRest(upstream);
    }
  };
  // Large requests left waiting out a rest: looked at again once it is over.
  const wakeAfterRest = (upstream: Upstream) => {
    const inMs = upstream.share.opensIn(now());
    if (inMs === 0 || upstream.rest) return;
    upstream.rest = setTimeout(() => {
      upstream.rest = null;
      drain();
    }, Math.ceil(inMs) + 1);
    upstream.rest.unref();
  };
  const wait = (place: Place, upstream: Upstream, token: Token, signal: AbortSignal, timeoutMs: number) =>
    new Promise<Error | null>((resolve) => {
      upstream.queue ??= createFairQueue<Waiter>();
      const queue = upstream.queue;
      const giveUp = (error: Error) => {
        if (!queue.remove(place.token, waiter)) return;
        token.waiting -= 1;
        if (queue.size === 0) crowded.delete(upstream);
        waiter.settle(error);
        forget(place, upstream, token);
      };
      const onAbort = () => giveUp(signal.reason instanceof Error ? signal.reason : new Error('request ended'));
      const timer = setTimeout(() => {
        figuresOf(place.server).timedOut += 1;
        giveUp(new InFlightWaitTimeoutError(place.server, timeoutMs, heldBy(place, upstream)));
      }, timeoutMs);
      const waiter: Waiter = {
        place,
        since: now(),
        settle(error) {
          clearTimeout(timer);
          signal.removeEventListener('abort', onAbort);
          resolve(error);
        },
      };
      signal.addEventListener('abort', onAbort, { once: true });
      token.waiting += 1;
      figuresOf(place.server).waited += 1;
      queue.push(place.token, waiter);
      crowded.add(upstream);
    });

  return {
    enter(place, signal, timeoutMs) {
      let upstream = upstreams.get(place.key);
      if (!upstream) {
        upstream = {
          server: place.server,
          inFlight: 0,
          large: 0,
          share: createLargeShare(),
          rest: null,
          cap: 0,
          queue: null,
          heardAt: 0,
        };
        upstreams.set(place.key, upstream);
      }
      upstream.cap = capOf(place);
      let token = tokens.get(place.token);
      if (!token) {
        token = { inFlight: 0, waiting: 0 };
        tokens.set(place.token, token);
      }
      // Those already waiting go first (a raised cap lets them in now), then this one if room is left.
      if (upstream.queue?.size) drain();
      if (!place.large) upstream.share.ordinary(now());
      if (upstream.inFlight < upstream.cap && token.inFlight < limits().perToken && roomFor(place, upstream)) {
        if (upstream.inFlight === 0) upstream.heardAt = now();
        upstream.inFlight += 1;
        if (place.large) upstream.large += 1;
        place.since = now();
        token.inFlight += 1;
        return null;
      }
      const { queuePerToken } = limits();
      if (signal.aborted || token.waiting >= queuePerToken) {
        const error = signal.aborted
          ? signal.reason
          : new InFlightCapError(place.server, queuePerToken, heldBy(place, upstream));
        if (!signal.aborted) figuresOf(place.server).refused += 1;
        forget(place, upstream, token);
        return Promise.resolve(error instanceof Error ? error : new Error('request ended'));
      }
      return wait(place, upstream, token, signal, timeoutMs);
    },
    leave(place, answered) {
      const upstream = upstreams.get(place.key);
      const token = tokens.get(place.token);
      if (!upstream || !token) return;
      upstream.inFlight -= 1;
      token.inFlight -= 1;
      if (answered) upstream.heardAt = now();
      if (place.large) {
        upstream.large -= 1;
        // A rest after it while the connection is shared (drain lets the next one in after it).
        upstream.share.ended(place.since ?? now(), now());
      }
      if (crowded.size > 0) drain();
      forget(place, upstream, token);
    },
    quietFor(key) {
      const upstream = upstreams.get(key);
      return upstream?.inFlight ? now() - upstream.heardAt : Number.POSITIVE_INFINITY;
    },
    stats() {
      const load = new Map<string, { inFlight: number; waiting: number }>();
      for (const upstream of upstreams.values()) {
        const seen = load.get(upstream.server) ?? { inFlight: 0, waiting: 0 };
        seen.inFlight += upstream.inFlight;
        seen.waiting += upstream.queue?.size ?? 0;
        load.set(upstream.server, seen);
      }
      const servers = new Set([...load.keys(), ...figures.keys()]);
      return [...servers].map((server) => {
        const counted = figures.get(server) ?? { waited: 0, waitMs: 0, refused: 0, timedOut: 0 };
        return {
          server,
          inFlight: load.get(server)?.inFlight ?? 0,
          waiting: load.get(server)?.waiting ?? 0,
          waited: counted.waited,
          waitSeconds: counted.waitMs / 1000,
          refused: counted.refused,
          timedOut: counted.timedOut,
        };
      });
    },
  };
}
