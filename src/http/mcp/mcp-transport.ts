/**
 * The Streamable HTTP server transport of one agent session (SPEC G1), on `node:http` directly and on the
 * SDK's `Transport` interface and message schemas (ADR 006). A POST's answers go back as one
 * `application/json` body, headers and body in one write, unless a notification or server-to-client request
 * tied to one of its requests comes first: that turns the response into an SSE stream (the spec lets the
 * server choose per request). SSE events carry ids and are kept in a bounded log for `Last-Event-ID`
 * resumption; the standalone GET stream carries what belongs to no request. A request under an id already in
 * flight is refused; a request the client cancelled ends its POST. A stream whose client stops reading is
 * closed at a bound on its unsent bytes (X8), to be resumed.
 * @module
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  isInitializeRequest,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type MessageExtraInfo,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import { closeAfterLinger, type RpcRefusal, writeRefusal } from '../io/index.js';
import { checkMcpSession, SESSION_NOT_FOUND } from './check-mcp-session.js';
import { clashingRequestId } from './clashing-request-id.js';
import { type McpHeaders, mcpHeaders, protocolVersionOf } from './mcp-headers.js';
import { McpStream, STANDALONE, streamFrame } from './mcp-stream.js';
import {
  type McpHttpTransportOptions,
  type ResolvedTransportOptions,
  resolveTransportOptions,
} from './mcp-transport-options.js';
import { readMcpPost, refusal } from './read-mcp-post.js';
import { followedElsewhere, resumption } from './resumption.js';
import { textOf } from './serialize-message.js';
import type { SessionRelay } from './session-relay.js';

export type { McpHttpTransportOptions } from './mcp-transport-options.js';

const isAnswer = (m: JSONRPCMessage): boolean => 'result' in m || 'error' in m;
const isRequest = (m: JSONRPCMessage): m is JSONRPCMessage & { id: RequestId; method: string } =>
  'method' in m && 'id' in m;

/** One agent session's transport; the endpoint hands it each HTTP request of the session. */
export class McpHttpTransport implements Transport {
  sessionId?: string;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;

  readonly #streams = new Map<string, McpStream>();
  readonly #byRequest = new Map<RequestId, McpStream>();
  readonly #o: ResolvedTransportOptions;
  /** Cluster mode: what crosses replicas (ADR 039 §3); absent, nothing is looked at. */
  readonly #relay: SessionRelay | undefined;
  /** Built once the session id is known, not per request. */
  #headers: McpHeaders | null = null;
  #streamCount = 0;
  #closed = false;
  #keepAlive: NodeJS.Timeout | undefined;
  /** Ids of requests handed in from elsewhere (a restored session's `initialize`, the fleet's), whose answers nobody waits for. */
  readonly #unanswered = new Map<RequestId, () => void>();
  #injected = 0;

  constructor(options: McpHttpTransportOptions = {}) {
    this.#o = resolveTransportOptions(options);
    this.#relay = options.relay;
  }

  async start(): Promise<void> {
    // One timer per session, not one per stream.
    const { now, keepAliveMs } = this.#o;
    this.#keepAlive = setInterval(() => {
      for (const stream of this.#streams.values()) stream.keepAlive(now(), keepAliveMs);
    }, keepAliveMs).unref();
  }

  /** Serve one HTTP request of this session; `body` is the POST body when the caller already read it. */
  async handleRequest(req: IncomingMessage, res: ServerResponse, body?: unknown): Promise<void> {
    const refused = this.#closed ? SESSION_NOT_FOUND : await this.#route(req, res, body);
    if (!refused) return;
    // Over the size limit, its body unread: the client reads the 413 before the connection goes.
    if (refused.status === 413) closeAfterLinger(req, res);
    writeRefusal(res, refused);
  }

  async send(sent: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const answer = isAnswer(sent);
    const requestId = answer ? (sent as { id: RequestId }).id : options?.relatedRequestId;
    const injected = answer && this.#unanswered.size > 0 ? this.#unanswered.get(requestId as RequestId) : undefined;
    if (injected) {
      this.#unanswered.delete(requestId as RequestId);
      return injected();
    }
    const out = this.#relay ? this.#relay.outgoing(sent) : sent;
    const message = out instanceof Promise ? await out : out;
    if (requestId === undefined) {
      if (answer) throw new Error('Cannot send a response on the standalone SSE stream');
      // A request of no call, and no GET stream here: another replica may hold it (ADR 039 §3).
      if (!this.#standalone(message, true) && this.#relay && isRequest(message)) this.#relay.ask(message);
      return;
    }
    const stream = this.#byRequest.get(requestId);
    if (!stream) throw new Error(`No connection established for request ID: ${String(requestId)}`);
    if (answer) this.#byRequest.delete(requestId);
    if (stream.deliver(message, answer) === 'done') this.#streams.delete(stream.id);
  }

  /** Take on a session another replica opened (ADR 039): its `initialize` and `initialized` replayed here. */
  restore(sessionId: string, initialize: Record<string, unknown>): void {
    this.sessionId = sessionId;
    this.#o.onSessionInitialized?.(sessionId);
    void this.inject({ jsonrpc: '2.0', id: 0, method: 'initialize', params: initialize });
    void this.inject({ jsonrpc: '2.0', method: 'notifications/initialized' });
  }

  /**
   * Hand the server a message of this session's client that reached another replica (the fleet relay), as if
   * POSTed here; a request's answer goes to nobody: the promise settles once it is given.
   */
  async inject(message: JSONRPCMessage): Promise<void> {
    if (this.#closed) return;
    if (isRequest(message)) {
      const id = `boternity-injected-${++this.#injected}`;
      const answered = new Promise<void>((resolve) => this.#unanswered.set(id, resolve));
      this.onmessage?.({ ...message, id });
      return answered;
    }
    this.onmessage?.(message);
    this.#forgoCancelled(message);
  }

  /** Send a request of this session that another replica made on the GET stream here, if one is open; whether it was. */
  offer(message: JSONRPCRequest): boolean {
    return !this.#closed && this.#standalone(message, false);
  }

  /** Log `message` as the GET stream's (`always`, or only when it is open) and send it if open; whether it was. */
  #standalone(message: JSONRPCMessage, always: boolean): boolean {
    const stream = this.#streams.get(STANDALONE);
    const open = stream?.connected() === true;
    if (!open && !always) return false;
    const data = textOf(this.#o.serialize(message));
    const id = this.#o.log.append(STANDALONE, data);
    stream?.write(streamFrame(id, data));
    this.#relay?.logged(id, data);
    return open;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#keepAlive);
    for (const stream of this.#streams.values()) stream.end();
    this.#streams.clear();
    this.#byRequest.clear();
    for (const answered of this.#unanswered.values()) answered();
    this.#unanswered.clear();
    // Its buffer's bytes go back to the budget all sessions share.
    this.#o.log.dispose();
    this.#o.onSessionClosed?.();
    this.onclose?.();
  }

  async #route(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<RpcRefusal | null> {
    switch (req.method) {
      case 'POST':
        return this.#post(req, res, body);
      case 'GET':
        return checkMcpSession(req, this.sessionId) ?? this.#get(req, res);
      case 'DELETE': {
        const refused = checkMcpSession(req, this.sessionId);
        if (refused) return refused;
        res.writeHead(200, this.#built().session).end();
        await this.close();
        return null;
      }
      default:
        return { ...refusal(405, -32000, 'Method not allowed.'), headers: { allow: 'GET, POST, DELETE' } };
    }
  }

  async #post(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<RpcRefusal | null> {
    let messages = await readMcpPost(req, { body, maxBodyBytes: this.#o.maxBodyBytes });
    if (!Array.isArray(messages)) return messages;
    if (this.#closed) return SESSION_NOT_FOUND;
    // Only a message named `initialize` pays for the full check.
    const init = messages.find((m) => 'method' in m && m.method === 'initialize' && isInitializeRequest(m));
    if (init) {
      if (this.sessionId !== undefined) return refusal(400, -32600, 'Invalid Request: Server already initialized');
      if (messages.length > 1) {
        return refusal(400, -32600, 'Invalid Request: Only one initialization request is allowed');
      }
      this.sessionId = this.#o.newSessionId();
      this.#o.onSessionInitialized?.(this.sessionId);
    } else {
      const refused = checkMcpSession(req, this.sessionId);
      if (refused) return refused;
      // Cluster mode: what is another replica's goes there (ADR 039 §3).
      if (this.#relay) messages = this.#relay.incoming(messages, (id) => this.#byRequest.has(id));
    }
    const extra: MessageExtraInfo = { requestInfo: { headers: req.headers } };
    const requests = messages.filter(isRequest);
    // A second request under an id in flight would take over the first one's stream, which
    // would then never get its answer: it is refused, and nothing of its POST is handled.
    const clash = clashingRequestId(requests, this.#byRequest);
    if (clash) {
      writeRefusal(res, refusal(400, -32600, clash.message), { id: clash.id });
      return null;
    }
    if (requests.length === 0) {
      res.writeHead(202, this.#built().session).end();
      for (const message of messages) {
        this.onmessage?.(message, extra);
        this.#forgoCancelled(message);
      }
      return null;
    }
    const version = init
      ? String((init as { params?: { protocolVersion?: unknown } }).params?.protocolVersion)
      : protocolVersionOf(req);
    // From 2025-11-25 a client may be sent a priming event and asked to reconnect (polling).
    const resumable = version >= '2025-11-25';
    this.#streamCount += 1;
    const stream = this.#register(`s${this.#streamCount}`, res, requests.length, resumable);
    for (const request of requests) this.#byRequest.set(request.id, stream);
    for (const message of messages) {
      const given: MessageExtraInfo =
        resumable && isRequest(message)
          ? {
              requestInfo: extra.requestInfo,
              closeSSEStream: () => this.#byRequest.get(message.id)?.detach(),
              closeStandaloneSSEStream: () => this.#streams.get(STANDALONE)?.end(),
            }
          : extra;
      this.onmessage?.(message, given);
      this.#forgoCancelled(message);
    }
    return null;
  }

  /** A request the client cancelled gets no answer: its stream stops owing one (no stream without an end). */
  #forgoCancelled(message: JSONRPCMessage): void {
    if (!('method' in message) || message.method !== 'notifications/cancelled') return;
    const requestId = (message.params as { requestId?: RequestId } | undefined)?.requestId;
    const stream = requestId === undefined ? undefined : this.#byRequest.get(requestId);
    if (!stream || requestId === undefined) return;
    this.#byRequest.delete(requestId);
    if (stream.forgo() === 'done') this.#streams.delete(stream.id);
  }

  async #get(req: IncomingMessage, res: ServerResponse): Promise<RpcRefusal | null> {
    if (!req.headers.accept?.includes('text/event-stream')) {
      return refusal(406, -32000, 'Not Acceptable: Client must accept text/event-stream');
    }
    const last = req.headers['last-event-id'];
    const lastEventId = typeof last === 'string' && last !== '' ? last : null;
    const resumed = lastEventId ? resumption(this.#o.log, lastEventId) : 'fresh';
    if (lastEventId && (await followedElsewhere(resumed, lastEventId, this.#relay, res, this.#built()))) return null;
    if (resumed !== 'fresh') return 'status' in resumed ? resumed : this.#resume(resumed, res);
    // Another replica's GET stream: what it kept of it is replayed here first (ADR 039 §5).
    const missed = lastEventId && this.#relay ? await this.#relay.missed(lastEventId) : '';
    if (this.#closed) return SESSION_NOT_FOUND;
    if (this.#streams.get(STANDALONE)?.connected()) {
      return refusal(409, -32000, 'Conflict: Only one SSE stream is allowed per session');
    }
    this.#register(STANDALONE, res, 0, false).startSse(missed);
    this.#relay?.streamOpened();
    return null;
  }

  /** Replay what a lost stream missed, and carry on with it on `res`. */
  #resume({ streamId, missed }: { streamId: string; missed: string }, res: ServerResponse): RpcRefusal | null {
    const live = this.#streams.get(streamId);
    if (live?.connected()) return refusal(409, -32000, 'Conflict: Stream already has an active connection');
    if (live) live.reattach(res, missed);
    else if (streamId === STANDALONE) this.#register(STANDALONE, res, 0, false).startSse(missed);
    // Every answer of that stream was sent already: replay what was missed and end.
    else res.writeHead(200, this.#built().sse).end(missed);
    if (streamId === STANDALONE) this.#relay?.streamOpened();
    return null;
  }

  #register(id: string, res: ServerResponse, owed: number, primes: boolean): McpStream {
    const { retryMs, log, serialize, guard, now } = this.#o;
    const { sse: sseHeaders, json: jsonHeaders } = this.#built();
    const [opened, session] = [now(), this.sessionId];
    // One literal, not `{ ...shared, id, … }` (nor `{ ...extra, ...polling }` in #post): see withLength.
    const options = { retryMs, log, serialize, guard, sseHeaders, jsonHeaders, id, res, owed, primes, opened, session };
    const stream = new McpStream(options);
    this.#streams.set(id, stream);
    return stream;
  }

  #built(): McpHeaders {
    if (this.#headers) return this.#headers;
    const built = mcpHeaders(this.sessionId);
    // Before initialize there is no id yet: build again next time.
    if (this.sessionId !== undefined) this.#headers = built;
    return built;
  }
}
