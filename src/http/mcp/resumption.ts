/**
 * What a GET with `Last-Event-ID` resumes (SPEC G1, X8; issue 22 part 3, ADR 039 §5): the
 * stream the event was sent on and the frames it missed, from the session's log. In cluster
 * mode an id sent by another replica is not in this replica's log: the standalone stream
 * starts with what the fleet's store kept of it after that event (`session-relay.ts`); a
 * POST's stream is followed from what its replica keeps of it, to its answer
 * (`follow-request-stream.ts`); without a store (or once it no longer has the event), the GET
 * is refused with a 503 that the client (and a balancer told to, such as nginx's
 * `proxy_next_upstream http_503`) retries elsewhere, until it reaches that replica.
 * @module
 */
import type { ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { RpcRefusal } from '../io/index.js';
import { followRequestStream } from './follow-request-stream.js';
import type { McpHeaders } from './mcp-headers.js';
import { streamFrame } from './mcp-stream.js';
import type { SessionRelay } from './session-relay.js';
import type { SseEventLog } from './sse-event-log.js';

/** Where a resumption goes: a stream and what it missed, a new standalone stream, or a refusal. */
export type Resumption = { readonly streamId: string; readonly missed: string } | 'fresh' | RpcRefusal;

/** Find what `lastEventId` resumes in `log`. */
export function resumption(log: SseEventLog, lastEventId: string): Resumption {
  const streamId = log.streamOf(lastEventId);
  if (streamId === undefined) {
    if (log.evicted(lastEventId)) {
      const message = `Event ${lastEventId} is past the resumption window: the session's buffer has dropped it (gateway.maxBufferBytesPerSession, gateway.maxBufferBytes); what followed it cannot be replayed`;
      return { status: 400, code: -32000, message };
    }
    const foreign = log.foreign(lastEventId);
    if (foreign === 'standalone') return 'fresh';
    if (foreign === 'request') {
      const message = `Event ${lastEventId} was sent by another replica, which serves its request: retry, the balancer will send the retry to another replica`;
      return { status: 503, code: -32000, message, headers: { 'retry-after': '1' } };
    }
    return { status: 400, code: -32000, message: 'Invalid event ID format' };
  }
  const missed = log
    .after(lastEventId)
    .map((e) => streamFrame(e.id, e.data))
    .join('');
  return { streamId, missed };
}

/** How long a resumption of another replica's POST stream waits for the event it names to be kept. */
const KEPT_WAIT_MS = 1_000;
const KEPT_POLL_MS = 100;

/**
 * Whether a resumption refused here with a 503 (an event of another replica's POST stream)
 * was answered instead by following what that replica kept of the stream on `res`.
 */
export async function followedElsewhere(
  resumed: Resumption,
  lastEventId: string,
  relay: SessionRelay | undefined,
  res: ServerResponse,
  headers: McpHeaders,
): Promise<boolean> {
  if (!relay || resumed === 'fresh' || !('status' in resumed) || resumed.status !== 503) return false;
  // The serving replica writes its events in the background: a client back at once may be a
  // moment ahead of the write of the event it names.
  let kept = await relay.requestEvents(lastEventId);
  for (let waited = 0; !kept && waited < KEPT_WAIT_MS; waited += KEPT_POLL_MS) {
    await sleep(KEPT_POLL_MS);
    kept = await relay.requestEvents(lastEventId);
  }
  if (!kept) return false;
  followRequestStream(res, headers.sse, kept, relay.requestEvents);
  return true;
}
