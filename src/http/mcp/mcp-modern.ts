/**
 * MCP 2026-07-28 on the `/mcp` endpoints (ADR 013): requests the endpoint classified as
 * modern are served statelessly by the v2 SDK's `createMcpHandler`, one per view (endpoint,
 * token and client name), whose factory builds a v2 server for each request over the
 * gateway's view session. The handler keeps the `subscriptions/listen` streams of its view;
 * the view session's change notifications are published on its bus, so a stream hears
 * only of changes to its own view.
 * @module
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ServerNotification } from '@modelcontextprotocol/sdk/types.js';
import {
  CLIENT_INFO_META_KEY,
  createMcpHandler,
  InMemoryServerEventBus,
  type McpHttpHandler,
  type ServerEvent,
} from '@modelcontextprotocol/server';
import type { Logger } from 'pino';
import type { Gateway } from '../../gateway/index.js';
import type { ModernView } from '../../gateway/modern/index.js';
import type { SessionOptions } from '../../gateway/session/index.js';
import type { SseStreamLabel, SseWriteGuard } from '../io/index.js';
import {
  createDelivered,
  createRemoteHolds,
  type Delivered,
  holdFleetWide,
  type ListenFleet,
  listToken,
  type RemoteHolds,
  viewDigest,
} from './fleet-listen.js';

/** Who asks, on which endpoint and view: what the endpoint worked out before classifying. */
export type ModernCaller = SessionOptions & { readonly path: string; readonly owner: string };

/**
 * The modern side of the endpoints. Its handlers end (with their listen streams) when their
 * view sessions do: idle, revoked, or the gateway closing.
 */
export type ModernEndpoint = {
  /** Answer one modern request whose JSON body was read already. */
  serve(req: IncomingMessage, res: ServerResponse, caller: ModernCaller, body: unknown): Promise<void>;
};

type Entry = {
  readonly view: ModernView;
  readonly handler: McpHttpHandler;
  readonly bus: InMemoryServerEventBus;
  /** The view on the fleet bus; its events' copies; what it holds for other replicas' streams. */
  readonly digest: string;
  readonly delivered: Delivered;
  readonly remote: RemoteHolds;
  listens: number;
};

/** Another replica's update of a resource given within this after one is taken for a copy (ADR 044). */
const SAME_UPDATE_MS = 500;
/** A stream's resources are announced again this often; a replica lets go of them after 3 missed. */
const HOLD_REFRESH_MS = 10_000;

const EVENTS: Partial<Record<ServerNotification['method'], ServerEvent['kind']>> = {
  'notifications/tools/list_changed': 'tools_list_changed',
  'notifications/prompts/list_changed': 'prompts_list_changed',
  'notifications/resources/list_changed': 'resources_list_changed',
};

/** The view session's notification as a listen-stream event; null: not one a stream carries. */
function eventOf(notification: ServerNotification): ServerEvent | null {
  if (notification.method === 'notifications/resources/updated')
    return { kind: 'resource_updated', uri: notification.params.uri };
  const kind = EVENTS[notification.method];
  return kind ? ({ kind } as ServerEvent) : null;
}

/** The client name a modern request names in its `_meta` (null: none). */
function clientInfoOf(body: unknown): { name: string; version: string } | null {
  const meta = (body as { params?: { _meta?: Record<string, unknown> } }).params?._meta;
  const info = meta?.[CLIENT_INFO_META_KEY] as { name?: unknown; version?: unknown } | undefined;
  return typeof info?.name === 'string' ? { name: info.name, version: String(info.version ?? '') } : null;
}

/** The resource URIs a `subscriptions/listen` request asks to hear of. */
function resourcesOf(body: unknown): string[] {
  const uris = (body as { params?: { notifications?: { resourceSubscriptions?: unknown } } }).params?.notifications
    ?.resourceSubscriptions;
  return Array.isArray(uris) ? uris.filter((u): u is string => typeof u === 'string').slice(0, 100) : [];
}

/** Create the modern side; `maxBodyBytes` as the endpoint reads bodies, `writeGuard` bounds its streams (X8). */
export function createModernEndpoint({
  gateway,
  maxBodyBytes,
  writeGuard,
  log,
  fleet = null,
}: {
  gateway: Pick<Gateway, 'openModernView'>;
  maxBodyBytes: () => number;
  writeGuard: SseWriteGuard;
  log: Logger;
  /** Cluster mode: the listen streams hear every replica's view events (ADR 044). */
  fleet?: ListenFleet | null;
}): ModernEndpoint {
  const views = new Map<string, Promise<Entry>>();
  // The open views by their digest on the fleet bus: where another replica's events go.
  const byDigest = new Map<string, Entry>();
  void fleet
    ?.subscribe((message, self) => {
      const entry = byDigest.get(message.v);
      if (self || !entry) return;
      if ('e' in message) {
        if (entry.listens > 0 && entry.delivered.take(message.e, message.f, true)) entry.bus.publish(message.e);
      } else if ('hold' in message) entry.remote.hold(message.hold, message.uris, entry.view.listenResources);
      else entry.remote.release(message.release);
    })
    .catch((error: unknown) => log.warn({ err: error }, 'listen streams not fed by the fleet bus'));

  /** Open the view `key` names; `self()` is the map's promise of it. */
  const open = async (
    key: string,
    caller: ModernCaller,
    clientInfo: ModernCaller['clientInfo'],
    self: () => Promise<Entry> | undefined,
  ): Promise<Entry> => {
    const bus = new InMemoryServerEventBus((error) => log.debug({ err: error }, 'listen stream listener failed'));
    const digest = fleet ? viewDigest(key) : '';
    let entry: Entry | null = null;
    const view = await gateway.openModernView({
      ...caller,
      clientInfo: clientInfo ?? null,
      owner: caller.owner,
      publish(notification) {
        const event = eventOf(notification);
        if (!event) return;
        if (!fleet) return bus.publish(event);
        const token = listToken(event, entry?.view.session.fingerprint);
        if (entry?.delivered.take(event, token, false) ?? true) bus.publish(event);
        fleet.publish(token === undefined ? { v: digest, e: event } : { v: digest, e: event, f: token });
      },
      listening: () => (entry?.listens ?? 0) > 0 || (entry?.remote.size() ?? 0) > 0,
      onClose() {
        if (views.get(key) === self()) views.delete(key);
        if (entry && byDigest.get(digest) === entry) byDigest.delete(digest);
        entry?.remote.close();
        void entry?.handler.close();
      },
    });
    const handler = createMcpHandler(() => view.server(), {
      legacy: 'reject',
      bus,
      maxRequestBodySize: maxBodyBytes(),
      onerror: (error) => log.debug({ err: error, path: caller.path }, 'modern request refused'),
    });
    const delivered = createDelivered({ windowMs: SAME_UPDATE_MS });
    const remote = createRemoteHolds({ expireMs: 3 * HOLD_REFRESH_MS });
    entry = { view, handler, bus, digest, delivered, remote, listens: 0 };
    if (fleet) byDigest.set(digest, entry);
    return entry;
  };
  const entryFor = (caller: ModernCaller, body: unknown): Promise<Entry> => {
    const clientInfo = clientInfoOf(body);
    const key = `${caller.path}\n${caller.owner}\n${clientInfo?.name ?? ''}`;
    const found = views.get(key);
    if (found) return found;
    const made: Promise<Entry> = open(key, caller, clientInfo, () => made);
    views.set(key, made);
    // An endpoint that cannot be opened (an unknown bot) is not remembered.
    made.catch(() => {
      if (views.get(key) === made) views.delete(key);
    });
    return made;
  };

  return {
    async serve(req, res, caller, body) {
      const entry = await entryFor(caller, body);
      entry.view.touch();
      const listen = (body as { method?: unknown }).method === 'subscriptions/listen';
      if (listen) entry.listens += 1;
      const hangUp = new AbortController();
      res.once('close', () => hangUp.abort());
      const uris = listen ? resourcesOf(body) : [];
      const release = listen ? await entry.view.listenResources(uris) : null;
      // Cluster mode: the view on every replica holds them too, so each one's upstream updates are heard.
      const stopHolding = fleet && uris.length > 0 ? holdFleetWide(fleet, entry.digest, uris, HOLD_REFRESH_MS) : null;
      try {
        const response = await entry.handler.fetch(toRequest(req, hangUp.signal), { parsedBody: body });
        const label: SseStreamLabel = { kind: listen ? 'mcp_listen' : 'mcp_post' };
        await writeResponse(res, response, { guard: writeGuard, label });
      } finally {
        if (listen) entry.listens -= 1;
        stopHolding?.();
        void release?.();
      }
    },
  };
}

const SKIPPED = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive']);

/** The request as the v2 handler reads it: its headers (the body was read and goes as `parsedBody`). */
function toRequest(req: IncomingMessage, signal: AbortSignal): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || SKIPPED.has(name)) continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.set(name, value);
  }
  return new Request(`http://${req.headers.host ?? 'localhost'}${req.url ?? '/mcp'}`, {
    method: req.method ?? 'POST',
    headers,
    signal,
  });
}

/**
 * Write a web `Response` to `res`: a JSON body, or an SSE stream until either side ends it.
 * A stream is read as fast as it comes, whether the client reads or not (the SDK's listen
 * stream queues without bound while it is not read): what the client leaves unsent is
 * bounded by the guard instead, which closes the stream; a JSON body waits for the client.
 */
async function writeResponse(
  res: ServerResponse,
  response: Response,
  { guard, label }: { guard: SseWriteGuard; label: SseStreamLabel },
): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    headers[name] = value;
  });
  res.writeHead(response.status, headers);
  if (!response.body) {
    res.end();
    return;
  }
  res.flushHeaders();
  const stream = response.headers.get('content-type')?.startsWith('text/event-stream') ?? false;
  const reader = response.body.getReader();
  const cancel = () => void reader.cancel().catch(() => undefined);
  res.once('close', cancel);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || res.destroyed) break;
      if (stream) {
        if (!guard.write(res, value, label)) break;
      } else if (!res.write(value)) {
        await new Promise<void>((resolve) => {
          const go = () => {
            res.off('drain', go);
            res.off('close', go);
            resolve();
          };
          res.once('drain', go);
          res.once('close', go);
        });
      }
    }
  } catch {
    // The client went away mid-stream: nothing more to write.
  } finally {
    res.off('close', cancel);
    if (res.destroyed) cancel();
    else res.end();
  }
}
