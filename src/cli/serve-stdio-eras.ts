/**
 * Both protocol eras on `bnity mcp serve --stdio` run standalone (SPEC G1, ADR 013): the
 * client's first message decides. `server/discover` or a request carrying the MCP
 * 2026-07-28 `_meta` envelope opens a modern connection, served by the v2 SDK's
 * `serveStdio` over the gateway's view session; anything else (`initialize`) opens a
 * 2025-11-25 session as before. A connection keeps the era it opened with.
 * @module
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, ServerNotification } from '@modelcontextprotocol/sdk/types.js';
import { CLIENT_INFO_META_KEY, type Server } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import type { Gateway } from '../gateway/index.js';
import type { ModernView } from '../gateway/modern/index.js';
import type { SessionOptions } from '../gateway/session/index.js';
import { metaOf, opensModernEra } from './opens-modern-era.js';
import { PrimedTransport, readFirstMessage } from './primed-transport.js';

/** Serve `transport` (not started) in the era its client opens with; `onClose` when the connection ends. */
export async function serveStdioEras(
  gateway: Pick<Gateway, 'openSession' | 'openModernView' | 'checkView'>,
  transport: Transport,
  options: SessionOptions & { onClose(): void; onerror(error: Error): void },
): Promise<void> {
  // A bot that does not exist is an error at once, not when the client first speaks.
  await gateway.checkView(options.spec);
  const { first, read } = await readFirstMessage(transport);
  if (first === null) return options.onClose();
  const primed = new PrimedTransport(transport, read);
  if (!opensModernEra(first)) {
    await gateway.openSession({ ...options, transport: primed, idles: false });
    return;
  }
  let server: Server | null = null;
  const info = metaOf(first)?.[CLIENT_INFO_META_KEY] as { name?: string; version?: string } | undefined;
  const view = await gateway.openModernView({
    ...options,
    clientInfo: info?.name ? { name: info.name, version: String(info.version ?? '') } : null,
    owner: 'stdio',
    // The view's list changes go to the connection's server, whose listen router stamps them.
    publish: (notification: ServerNotification) => void server?.notification(notification as never),
    // The process lives as long as its client: never idle.
    listening: () => true,
    onClose: () => undefined,
  });
  primed.observe = holdListenedResources(view);
  const handle = serveStdio(
    () => {
      server = view.server();
      return server;
    },
    { legacy: 'reject', transport: primed as never, onerror: options.onerror },
  );
  // The client left: every listen stream ends (its held resources released), then the rest.
  primed.afterClose = () => {
    primed.observe?.({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: ALL } });
    void handle.close();
    void view.session.close();
    options.onClose();
  };
}

/** Stands for every listen stream in the cancellation the bridge makes up when the client leaves. */
const ALL = '*';

/**
 * The SDK's stdio listen router keeps the streams: boternity watches them go by to hold the
 * resources each names on the view session (so upstream updates reach it) until it is
 * cancelled or the connection ends.
 */
function holdListenedResources(view: Pick<ModernView, 'listenResources'>): (message: JSONRPCMessage) => void {
  const held = new Map<unknown, Promise<() => Promise<void>>>();
  const release = (id: unknown) => {
    void held.get(id)?.then((done) => done());
    held.delete(id);
  };
  return (message) => {
    if (!('method' in message)) return;
    if (message.method === 'subscriptions/listen' && 'id' in message) {
      const uris = (message.params as { notifications?: { resourceSubscriptions?: unknown } } | undefined)
        ?.notifications?.resourceSubscriptions;
      const named = Array.isArray(uris) ? uris.filter((u): u is string => typeof u === 'string').slice(0, 100) : [];
      if (named.length > 0) held.set(message.id, view.listenResources(named));
      return;
    }
    if (message.method !== 'notifications/cancelled') return;
    const id = (message.params as { requestId?: unknown } | undefined)?.requestId;
    if (id === ALL) for (const each of [...held.keys()]) release(each);
    else release(id);
  };
}
