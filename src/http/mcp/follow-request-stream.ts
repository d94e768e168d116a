/**
 * A POST's stream resumed on a replica that does not serve its request (SPEC K3, ADR 039
 * §5): the replica serving it keeps each event of the stream in the fleet's store
 * (`stream_events`, with the stream); the one a `GET` with `Last-Event-ID` reaches replays
 * what followed that event, then follows the stream there — reading what was kept every
 * `pollMs` — until its answer has been sent, the client leaves, or nothing came for
 * `idleMs` (the serving replica died: the stream ends and the client may resume again).
 * Before, that `GET` was refused with a 503 until a retry reached the serving replica.
 * @module
 */
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { streamFrame } from './mcp-stream.js';
import type { KeptEvents } from './session-relay.js';

/** What a POST's stream kept elsewhere holds after an event: its frames, its last event's id, whether its answer came. */
export type RequestEvents = { readonly frames: string; readonly last: string; readonly answered: boolean };

/** How often a followed stream is read again. */
const POLL_MS = 200;
/** A comment this often keeps a quiet followed stream open through proxies. */
const KEEP_ALIVE_MS = 15_000;
/** A followed stream with nothing new for this long ends (its replica may be gone; the client resumes again). */
const IDLE_MS = 5 * 60_000;

/** What session `digest`'s POST stream kept after its event `id`; null when it is not kept (or there is no store). */
export async function keptRequestEvents(
  events: KeptEvents | null,
  digest: string,
  id: string,
  log: Pick<Logger, 'warn'>,
): Promise<RequestEvents | null> {
  if (!events) return null;
  const kept = await events.afterInRequest(digest, id).catch((error: unknown) => {
    log.warn({ err: error }, 'fleet relay: kept stream events not read; the resumption is retried elsewhere');
    return null;
  });
  if (!kept) return null;
  // The priming event (no data) is not sent again: its id was all it carried.
  const sent = kept.filter((e) => e.data !== '');
  return {
    frames: sent.map((e) => streamFrame(e.id, e.data)).join(''),
    last: kept.at(-1)?.id ?? id,
    answered: sent.some((e) => isAnswerText(e.data)),
  };
}

/**
 * Answer `res` with the followed stream: `first` (what was kept after the client's last
 * event), then what `next` reads after the last event sent, until the answer came.
 */
export function followRequestStream(
  res: ServerResponse,
  sseHeaders: OutgoingHttpHeaders,
  first: RequestEvents,
  next: (after: string) => Promise<RequestEvents | null>,
  { pollMs = POLL_MS, idleMs = IDLE_MS, keepAliveMs = KEEP_ALIVE_MS } = {},
): void {
  res.writeHead(200, sseHeaders);
  if (first.frames) res.write(first.frames);
  else res.flushHeaders();
  if (first.answered) {
    res.end();
    return;
  }
  let last = first.last;
  let lastNews = Date.now();
  let lastWrite = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const stop = () => {
    clearTimeout(timer);
    if (!res.writableEnded) res.end();
  };
  res.once('close', () => clearTimeout(timer));
  const poll = async () => {
    const more = await next(last);
    if (res.writableEnded || res.destroyed) return;
    const now = Date.now();
    if (more && more.last !== last) {
      last = more.last;
      lastNews = now;
      if (more.frames) {
        res.write(more.frames);
        lastWrite = now;
      }
      if (more.answered) return stop();
    }
    if (now - lastNews > idleMs) return stop();
    if (now - lastWrite > keepAliveMs) {
      res.write(': keepalive\n\n');
      lastWrite = now;
    }
    timer = setTimeout(() => void poll(), pollMs);
  };
  timer = setTimeout(() => void poll(), pollMs);
}

/** Whether an event's JSON text is a JSON-RPC answer (the last event of a POST's stream). */
function isAnswerText(data: string): boolean {
  try {
    const message = JSON.parse(data) as Record<string, unknown>;
    return 'id' in message && ('result' in message || 'error' in message) && !('method' in message);
  } catch {
    return false;
  }
}
