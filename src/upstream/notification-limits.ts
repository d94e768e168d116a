/**
 * The notification rate limit of every upstream (issue 17): each connection gets a gate
 * with a token bucket of its server's `notificationRate`; what the bucket refuses is
 * dropped and counted. A server that drops is flooding until its bucket has had time to
 * fill again without a drop; the start and the end are reported (`server_flooding` on the
 * bus, a warning in the log), the counts are kept per server across its reconnects.
 * @module
 */
import { type BucketRate, createTokenBucket } from '../guard/token-bucket.js';

/** What a dropped notification was, for counting: a fixed set, never the upstream's own method text. */
export type NotificationKind = 'message' | 'resources_updated' | 'progress' | 'list_changed' | 'other';

/** The kind of a notification method. */
export function notificationKind(method: string): NotificationKind {
  if (method === 'notifications/message') return 'message';
  if (method === 'notifications/resources/updated') return 'resources_updated';
  if (method === 'notifications/progress') return 'progress';
  if (method.endsWith('/list_changed')) return 'list_changed';
  return 'other';
}

/** One connection's gate: called for each notification before it is parsed or handled. */
export type NotificationGate = {
  /** True: let it through; false: drop it (counted). */
  admit(method: string): boolean;
};

/** Counts by kind. */
export type KindCounts = Record<NotificationKind, number>;

/** A server's flood, as `GET /api/servers` shows it. */
export type FloodStatus = { readonly flooding: boolean; readonly dropped: number };

/** A server started (`flooding: true`) or stopped flooding. */
export type FloodChange = {
  readonly server: string;
  readonly flooding: boolean;
  /** Dropped in this flood so far (1 when it starts), and by kind. */
  readonly dropped: number;
  readonly byKind: KindCounts;
  /** Dropped since the server was first configured. */
  readonly droppedTotal: number;
  readonly perSecond: number;
  readonly burst: number;
  /** How long the flood lasted, up to its last drop (0 when it starts). */
  readonly durationMs: number;
};

/** Every server's gates, counts and flood state. */
export type NotificationLimits = {
  /** A new gate (a full bucket of `rate`) for a connection of `server`. */
  gateFor(server: string, rate: BucketRate): NotificationGate;
  status(server: string): FloodStatus;
  /** The server left the config: its counts go (an ongoing flood ends without a report). */
  forget(server: string): void;
  /** Stop every timer. */
  close(): void;
};

/** Options of {@link createNotificationLimits}; `now` in ms, `setTimer` returns a canceller. */
export type NotificationLimitsOptions = {
  onChange(change: FloodChange): void;
  now?: () => number;
  setTimer?: (run: () => void, ms: number) => () => void;
};

/** The shortest quiet time that ends a flood: a bucket that refills at once would otherwise flap. */
const MIN_QUIET_MS = 1_000;

type Flood = {
  rate: BucketRate;
  total: number;
  flooding: boolean;
  startedAt: number;
  lastDropAt: number;
  dropped: number;
  byKind: KindCounts;
  cancel: (() => void) | null;
};

const noKinds = (): KindCounts => ({ message: 0, resources_updated: 0, progress: 0, list_changed: 0, other: 0 });

const realTimer = (run: () => void, ms: number) => {
  const timer = setTimeout(run, ms);
  timer.unref();
  return () => clearTimeout(timer);
};

/** Create the limits of a service. */
export function createNotificationLimits({
  onChange,
  now = () => performance.now(),
  setTimer = realTimer,
}: NotificationLimitsOptions): NotificationLimits {
  const floods = new Map<string, Flood>();
  // A bucket refills completely in burst / perSecond: a server quiet that long has stopped.
  const quietMs = ({ perSecond, burst }: BucketRate) => Math.max(MIN_QUIET_MS, (burst / perSecond) * 1_000);
  const report = (server: string, flood: Flood) =>
    onChange({
      server,
      flooding: flood.flooding,
      dropped: flood.dropped,
      byKind: { ...flood.byKind },
      droppedTotal: flood.total,
      perSecond: flood.rate.perSecond,
      burst: flood.rate.burst,
      durationMs: Math.round(flood.lastDropAt - flood.startedAt),
    });
  const check = (server: string, flood: Flood) => {
    flood.cancel = null;
    const left = flood.lastDropAt + quietMs(flood.rate) - now();
    if (left > 0) {
      flood.cancel = setTimer(() => check(server, flood), left);
      return;
    }
    flood.flooding = false;
    report(server, flood);
  };
  const drop = (server: string, flood: Flood, method: string) => {
    // A connection of a server that was removed since: nobody reads its counts any more.
    if (floods.get(server) !== flood) return;
    const t = now();
    flood.total += 1;
    flood.lastDropAt = t;
    if (!flood.flooding) {
      flood.flooding = true;
      flood.startedAt = t;
      flood.dropped = 0;
      flood.byKind = noKinds();
    }
    flood.dropped += 1;
    flood.byKind[notificationKind(method)] += 1;
    if (flood.dropped === 1) {
      report(server, flood);
      flood.cancel = setTimer(() => check(server, flood), quietMs(flood.rate));
    }
  };

  return {
    gateFor(server, rate) {
      let flood = floods.get(server);
      if (!flood) {
        flood = {
          rate,
          total: 0,
          flooding: false,
          startedAt: 0,
          lastDropAt: 0,
          dropped: 0,
          byKind: noKinds(),
          cancel: null,
        };
        floods.set(server, flood);
      }
      flood.rate = rate;
      const own = flood;
      const bucket = createTokenBucket(rate, now);
      return {
        admit(method) {
          if (bucket.take()) return true;
          drop(server, own, method);
          return false;
        },
      };
    },
    status(server) {
      const flood = floods.get(server);
      return { flooding: flood?.flooding ?? false, dropped: flood?.total ?? 0 };
    },
    forget(server) {
      floods.get(server)?.cancel?.();
      floods.delete(server);
    },
    close() {
      for (const flood of floods.values()) flood.cancel?.();
      floods.clear();
    },
  };
}
