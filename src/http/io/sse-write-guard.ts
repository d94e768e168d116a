/**
 * The bound on what an SSE stream may have unsent (SPEC X8). A client that stops reading
 * leaves everything written to it in the socket's write buffer, which nothing else bounds;
 * past `maxUnsentBytes` the stream is closed instead of written to, counted by kind and
 * logged. Its events stay where they were (the session's replay log, the bus's window), so
 * the client resumes with `Last-Event-ID`. The check is made before each write: a stream
 * holds at most the bound plus the one event that crossed it (plus, after a resume, the
 * replay it has not taken yet: that is its own backlog, bounded by the replay window).
 * @module
 */
import type { ServerResponse } from 'node:http';
import type { Logger } from 'pino';

/** Which SSE stream: the `/mcp` GET stream, a POST's, a `subscriptions/listen` one, `/api/events`. */
export type SseStreamKind = 'mcp_get' | 'mcp_post' | 'mcp_listen' | 'api_events';

/** What the log line names: the kind, and the session when there is one. */
export type SseStreamLabel = { readonly kind: SseStreamKind; readonly session?: string | undefined };

/** The guard every SSE stream the service writes is written through. */
export type SseWriteGuard = {
  /**
   * Whether a stream with `unsent` bytes waiting is over the bound; when it is, the close
   * is counted and logged, and the caller closes the stream and writes nothing more to it.
   */
  overBound(unsent: number, stream: SseStreamLabel): boolean;
  /**
   * Write `chunk` on `res`; over the bound `res` is destroyed instead and false returned.
   * `allowance`: unsent bytes that do not count (a resume's replay the client is taking).
   */
  write(res: ServerResponse, chunk: string | Uint8Array, stream: SseStreamLabel, allowance?: number): boolean;
  /** Streams closed for not reading since the start, by kind. */
  closed(): Readonly<Record<SseStreamKind, number>>;
};

/** Default bound of one stream's unsent bytes: as much as a session's replay log holds by default. */
export const DEFAULT_MAX_UNSENT_BYTES = 1024 * 1024;

/** Create a guard; `maxUnsentBytes()` is read at each check (the config hot-reloads). */
export function createSseWriteGuard({
  maxUnsentBytes = () => DEFAULT_MAX_UNSENT_BYTES,
  log,
}: {
  maxUnsentBytes?: () => number;
  log?: Logger;
} = {}): SseWriteGuard {
  const counts: Record<SseStreamKind, number> = { mcp_get: 0, mcp_post: 0, mcp_listen: 0, api_events: 0 };
  const overBound = (unsent: number, { kind, session }: SseStreamLabel): boolean => {
    const max = maxUnsentBytes();
    if (unsent <= max) return false;
    counts[kind] += 1;
    log?.info(
      { stream: kind, session, unsentBytes: unsent, maxUnsentBytes: max },
      'SSE stream closed: its client stopped reading (it may resume with Last-Event-ID)',
    );
    return true;
  };
  return {
    overBound,
    write(res, chunk, stream, allowance = 0) {
      if (overBound(res.writableLength - allowance, stream)) {
        // Not end(): that would wait for the client to read what is queued, which it does not.
        res.destroy();
        return false;
      }
      res.write(chunk);
      return true;
    },
    closed: () => ({ ...counts }),
  };
}
