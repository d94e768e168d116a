/**
 * One response channel of a Streamable HTTP session (SPEC G1): the HTTP response of a POST
 * that owes answers to its requests, or the standalone GET stream. It starts silent; the
 * POST's answers leave as one JSON body when they are all it carries, and anything else
 * first (progress, logging, a server-to-client request) turns it into an SSE stream whose
 * events are logged for resumption. Each write leaves in one piece, headers included. A
 * client that stops reading is let go once its unsent bytes pass the bound (X8,
 * sse-write-guard.ts): its events wait in the log, for a resume with `Last-Event-ID`.
 * @module
 */
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { SseStreamLabel, SseWriteGuard } from '../io/index.js';
import { SESSION_NOT_FOUND } from './check-mcp-session.js';
import { withLength } from './mcp-headers.js';
import { bodyBytes, type Serialized, textOf } from './serialize-message.js';
import { type SseEventLog, STANDALONE } from './sse-event-log.js';

/** The id of the standalone (GET) stream in the event log. */
export { STANDALONE };

/** One SSE `message` event. */
export const streamFrame = (id: string, data: string): string => `event: message\nid: ${id}\ndata: ${data}\n\n`;

/** What a response still open when its session closes answers (as `writeRefusal` writes it). */
const SESSION_GONE = JSON.stringify({
  jsonrpc: '2.0',
  error: { code: SESSION_NOT_FOUND.code, message: SESSION_NOT_FOUND.message },
  id: null,
});

/** Options of {@link McpStream}. */
export type McpStreamOptions = {
  readonly id: string;
  readonly res: ServerResponse;
  /** How many requests this stream answers (0 for the GET stream). */
  readonly owed: number;
  /** Send a priming event (an id to resume from) when it becomes a stream: protocol 2025-11-25 on. */
  readonly primes: boolean;
  readonly retryMs: number;
  readonly log: SseEventLog;
  /** A message as JSON (large listings serialized once, see serialize-message.ts). */
  readonly serialize: (message: JSONRPCMessage) => Serialized;
  /** Headers of an SSE answer, and of a JSON one (name/value pairs, see mcp-headers.ts). */
  readonly sseHeaders: OutgoingHttpHeaders;
  readonly jsonHeaders: readonly string[];
  readonly opened: number;
  /** The bound on what the client has not taken yet (X8): a stream over it is closed, to be resumed. */
  readonly guard: SseWriteGuard;
  /** The session, for the guard's log line. */
  readonly session: string | undefined;
};

/** What {@link McpStream.deliver} left behind: more to come, or every answer sent. */
export type Delivery = 'open' | 'done';

/** One response channel; the transport routes messages to it by request id. */
export class McpStream {
  readonly id: string;
  readonly #options: McpStreamOptions;
  readonly #label: SseStreamLabel;
  #res: ServerResponse | null;
  /**
   * Bytes of a resume's replay the client may not have taken yet: they are its own to read,
   * not a sign that it stopped, so they do not count against the bound until it has.
   */
  #replayed = 0;
  #owed: number;
  #sse = false;
  /** Answers held back while the POST carries several requests and might still answer in JSON. */
  #held: JSONRPCMessage[] = [];

  constructor(options: McpStreamOptions) {
    this.id = options.id;
    this.#options = options;
    this.#label = { kind: options.id === STANDALONE ? 'mcp_get' : 'mcp_post', session: options.session };
    this.#owed = options.owed;
    this.#res = options.res;
  }

  /** Whether an HTTP response is attached and still open. */
  connected(): boolean {
    return this.#res !== null && !this.#res.writableEnded;
  }

  /** Route one message of this stream's requests; `answer` marks a response. */
  deliver(message: JSONRPCMessage, answer: boolean): Delivery {
    if (answer) this.#owed -= 1;
    const last = answer && this.#owed <= 0;
    // Gone before anything was streamed: the client holds no event id to resume from.
    if (!this.#sse && !this.#res) return last ? 'done' : 'open';
    if (!this.#sse && answer && this.#res) {
      this.#held.push(message);
      if (last) this.#answerJson();
      return last ? 'done' : 'open';
    }
    let chunk = this.#sse ? '' : this.#becomeSse();
    for (const held of this.#held.splice(0)) chunk += this.#event(held);
    chunk += this.#event(message);
    this.#send(chunk, last);
    return last ? 'done' : 'open';
  }

  /**
   * One of this stream's requests was cancelled: it gets no answer (the SDK sends none after
   * a cancellation), so the response ends once it owes nothing else instead of staying open.
   */
  forgo(): Delivery {
    this.#owed -= 1;
    if (this.#owed > 0) return 'open';
    const res = this.#res;
    if (!res || res.writableEnded) return 'done';
    if (this.#held.length > 0) {
      this.#answerJson();
      return 'done';
    }
    this.#res = null;
    if (this.#sse) res.end();
    // Nothing was sent yet: accepted, and no answer is to come.
    else res.writeHead(202).end();
    return 'done';
  }

  /** Write raw SSE text (the GET stream's events, a keep-alive comment); a client not reading is let go. */
  write(chunk: string): void {
    const res = this.#res;
    if (!res || res.writableEnded) return;
    // Less of the replay is left to take than is unsent now: the rest is the client's own backlog.
    this.#replayed = Math.min(this.#replayed, res.writableLength);
    if (!this.#options.guard.write(res, chunk, this.#label, this.#replayed)) this.#res = null;
  }

  /** Send the SSE headers now, with `initial` text; the GET stream's start. */
  startSse(initial: string): void {
    const chunk = this.#becomeSse() + initial;
    const res = this.#res;
    if (!res) return;
    this.#replayed = initial.length;
    if (chunk) res.write(chunk);
    // Nothing to send yet: the client still needs the headers to start reading.
    else res.flushHeaders();
  }

  /**
   * End the HTTP response but keep the stream, so the client resumes it with
   * `Last-Event-ID` (the SDK's `closeSSEStream`): later messages wait in the log.
   */
  detach(): void {
    if (!this.#res) return;
    const chunk = this.#sse ? '' : this.#becomeSse();
    const res = this.#res;
    this.#res = null;
    res.end(chunk);
  }

  /** Carry on with a resumed stream on `res`, after replaying `missed`. */
  reattach(res: ServerResponse, missed: string): void {
    this.#res = res;
    this.#watch(res);
    res.writeHead(200, this.#options.sseHeaders);
    this.#sse = true;
    this.#replayed = missed.length;
    if (missed) res.write(missed);
    else res.flushHeaders();
  }

  /** Keep a quiet stream open through proxies: a comment on SSE, or become SSE once silent `afterMs`. */
  keepAlive(now: number, afterMs: number): void {
    if (!this.#res) return;
    if (this.#sse) this.write(': keepalive\n\n');
    else if (now - this.#options.opened >= afterMs) this.#send(`${this.#becomeSse()}: keepalive\n\n`, false);
  }

  /** End the HTTP response (the session closes). */
  end(): void {
    const res = this.#res;
    this.#res = null;
    if (res && !res.writableEnded) {
      if (res.headersSent) res.end();
      else res.writeHead(SESSION_NOT_FOUND.status, { 'content-type': 'application/json' }).end(SESSION_GONE);
    }
  }

  /** Switch to SSE: the headers and the priming event, returned as the text to send first. */
  #becomeSse(): string {
    this.#sse = true;
    if (this.#res) this.#watch(this.#res);
    this.#res?.writeHead(200, this.#options.sseHeaders);
    if (!this.#options.primes) return '';
    const id = this.#options.log.append(this.id, null);
    return `id: ${id}\nretry: ${this.#options.retryMs}\ndata: \n\n`;
  }

  /**
   * Notice the client leaving a stream (only streams are watched: a JSON answer to a client
   * that left is written into the void). Its events then wait in the log for a resume.
   */
  #watch(res: ServerResponse): void {
    res.once('close', () => {
      if (this.#res === res) this.#res = null;
    });
  }

  #event(message: JSONRPCMessage): string {
    const data = textOf(this.#options.serialize(message));
    return streamFrame(this.#options.log.append(this.id, data), data);
  }

  /** Send on the stream; over the unsent bound it is closed instead, and what was not sent waits in the log. */
  #send(chunk: string, last: boolean): void {
    const res = this.#res;
    if (!res || res.writableEnded) return;
    if (!last) {
      this.write(chunk);
      return;
    }
    this.#res = null;
    this.#replayed = Math.min(this.#replayed, res.writableLength);
    if (this.#options.guard.overBound(res.writableLength - this.#replayed, this.#label)) res.destroy();
    else res.end(chunk);
  }

  #answerJson(): void {
    const res = this.#res as ServerResponse;
    const held = this.#held;
    const { serialize } = this.#options;
    let body: Serialized;
    try {
      body =
        held.length === 1
          ? serialize(held[0] as JSONRPCMessage)
          : `[${held.map((m) => textOf(serialize(m))).join(',')}]`;
    } catch (error) {
      // Only a message no one answers can still fail here (answer-unwritable.ts): the response
      // must end all the same, or the client waits on it for ever.
      this.#res = null;
      res.writeHead(500).end();
      throw error;
    }
    this.#res = null;
    // Encoded once: its length is then known, with no second pass over a large answer.
    const bytes = bodyBytes(body);
    res.writeHead(200, withLength(this.#options.jsonHeaders, bytes.length));
    res.end(bytes);
  }
}
