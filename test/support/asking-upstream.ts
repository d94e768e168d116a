/**
 * A Streamable HTTP upstream (the SDK's `McpServer`, one per upstream session) that asks
 * things of the agent behind the gateway and keeps per-session state, for the cluster tests
 * of sessions across replicas (issue 22, ADR 039): `echo`; `ask` (sampling), `confirm`
 * (elicitation) and `roots` on the call's own stream; `wait`, which holds until cancelled
 * and records it; `slow`, which reports progress; `log`, which sends one message per level
 * at or above the level its session was set to (its own `logging/setLevel`); a
 * subscribable resource `test://counter` and `bump`, which changes it and tells its
 * subscribers; `later`, which answers at once and leaves its upstream session to the test,
 * which may then ask a sampling of the agent outside any call (`askOutside`).
 * @module
 */
import { once } from 'node:events';
import type { Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  CreateMessageResultSchema,
  ElicitResultSchema,
  ListRootsResultSchema,
  type LoggingLevel,
  ResourceUpdatedNotificationSchema,
  RootsListChangedNotificationSchema,
  SetLevelRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { serveStreamableHttp } from './serve-streamable-http.mjs';
import { waitFor } from './wait-for.js';

const LEVELS: LoggingLevel[] = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

/** A running upstream: its URL, what it saw, and its end. */
export type AskingUpstream = {
  readonly url: string;
  /** The `wait` calls that began, and those that were cancelled, by their `text`. */
  readonly waiting: string[];
  readonly cancelled: string[];
  /** Upstream sessions subscribed to `test://counter` now. */
  readonly subscribers: () => number;
  /**
   * Ask a sampling of the agent outside any call, on the upstream session that served
   * `later` with `text` (a `scope: "session"` connection: it belongs to one agent session);
   * resolves with the sampled text, rejects with the error the gateway answered.
   */
  askOutside(text: string, options?: { timeout?: number }): Promise<string>;
  /**
   * The roots each upstream session listed on its own after the agent said its roots
   * changed (`notifications/roots/list_changed`), outside any call: one entry a session and time.
   */
  readonly rootsListed: string[];
  close(): void;
};

/** One upstream session's SDK server (each replica's connection is a session of its own). */
export type UpstreamSession = () => { server: McpServer['server']; onClose?: () => void };

/**
 * Start the upstream on a free port of 127.0.0.1; `newSession` serves other sessions than
 * the asking ones (then `waiting`, `cancelled` and `subscribers` stay empty).
 */
export async function startAskingUpstream({
  newSession,
}: {
  newSession?: UpstreamSession;
} = {}): Promise<AskingUpstream> {
  const waiting: string[] = [];
  const cancelled: string[] = [];
  const subscribed = new Set<McpServer>();
  const later = new Map<string, McpServer>();
  const rootsListed: string[] = [];
  let counter = 0;
  const server = serveStreamableHttp({
    port: 0,
    newSession:
      newSession ??
      (() => {
        const mcp = new McpServer(
          { name: 'asking', version: '1.0.0' },
          { capabilities: { logging: {}, resources: { subscribe: true } } },
        );
        let level: LoggingLevel = 'debug';
        mcp.server.setRequestHandler(SetLevelRequestSchema, async (request) => {
          level = request.params.level;
          return {};
        });
        mcp.server.setRequestHandler(SubscribeRequestSchema, async () => {
          subscribed.add(mcp);
          return {};
        });
        mcp.server.setRequestHandler(UnsubscribeRequestSchema, async () => {
          subscribed.delete(mcp);
          return {};
        });
        mcp.registerResource('counter', 'test://counter', {}, async (uri) => ({
          contents: [{ uri: uri.href, text: String(counter) }],
        }));
        mcp.registerTool('echo', { inputSchema: { text: z.string() } }, async ({ text }) => ({
          content: [{ type: 'text', text: `echo: ${text}` }],
        }));
        mcp.registerTool('ask', { inputSchema: { text: z.string() } }, async ({ text }, extra) => {
          const answer = await extra.sendRequest(
            {
              method: 'sampling/createMessage',
              params: { messages: [{ role: 'user', content: { type: 'text', text } }], maxTokens: 20 },
            },
            CreateMessageResultSchema,
          );
          const content = answer.content as { type: string; text?: string };
          return { content: [{ type: 'text', text: `sampled: ${content.text}` }] };
        });
        mcp.registerTool('confirm', { inputSchema: { text: z.string() } }, async ({ text }, extra) => {
          const answer = await extra.sendRequest(
            {
              method: 'elicitation/create',
              params: {
                message: text,
                requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
              },
            },
            ElicitResultSchema,
          );
          return { content: [{ type: 'text', text: `elicited: ${answer.action} ${JSON.stringify(answer.content)}` }] };
        });
        mcp.registerTool('roots', { inputSchema: {} }, async (_args, extra) => {
          const { roots } = await extra.sendRequest({ method: 'roots/list' }, ListRootsResultSchema);
          return { content: [{ type: 'text', text: `roots: ${roots.map((r) => r.uri).join(' ')}` }] };
        });
        mcp.registerTool('wait', { inputSchema: { text: z.string() } }, async ({ text }, extra) => {
          waiting.push(text);
          await new Promise<void>((resolve) => {
            if (extra.signal.aborted) resolve();
            extra.signal.addEventListener('abort', () => resolve(), { once: true });
          });
          cancelled.push(text);
          return { content: [{ type: 'text', text: 'cancelled' }] };
        });
        mcp.registerTool('slow', { inputSchema: { steps: z.number() } }, async ({ steps }, extra) => {
          const progressToken = extra._meta?.progressToken;
          for (let i = 1; i <= steps && progressToken !== undefined; i++)
            await extra.sendNotification({
              method: 'notifications/progress',
              params: { progressToken, progress: i, total: steps },
            });
          return { content: [{ type: 'text', text: `done ${steps}` }] };
        });
        mcp.registerTool('log', { inputSchema: { text: z.string() } }, async ({ text }, extra) => {
          for (const each of LEVELS.slice(LEVELS.indexOf(level)))
            await extra.sendNotification({ method: 'notifications/message', params: { level: each, data: text } });
          return { content: [{ type: 'text', text: `logged at ${level} and above` }] };
        });
        mcp.server.setNotificationHandler(RootsListChangedNotificationSchema, async () => {
          const { roots } = await mcp.server.listRoots(undefined, { timeout: 10_000 });
          rootsListed.push(roots.map((r) => r.uri).join(' '));
        });
        mcp.registerTool('later', { inputSchema: { text: z.string() } }, async ({ text }) => {
          later.set(text, mcp);
          return { content: [{ type: 'text', text: `later: ${text}` }] };
        });
        mcp.registerTool('bump', { inputSchema: {} }, async () => {
          counter += 1;
          await Promise.all([...subscribed].map((s) => s.server.sendResourceUpdated({ uri: 'test://counter' })));
          return { content: [{ type: 'text', text: `counter ${counter}` }] };
        });
        return { server: mcp.server, onClose: () => subscribed.delete(mcp) };
      }),
  }) as HttpServer;
  if (!server.listening) await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
    waiting,
    cancelled,
    subscribers: () => subscribed.size,
    rootsListed,
    async askOutside(text, { timeout } = {}) {
      const mcp = later.get(text);
      if (!mcp) throw new Error(`no upstream session served later ${text}`);
      // No related request: the SDK sends it on its standalone stream, as a request of no call.
      const answer = await mcp.server.createMessage(
        { messages: [{ role: 'user', content: { type: 'text', text } }], maxTokens: 20 },
        timeout === undefined ? {} : { timeout },
      );
      return (answer.content as { text?: string }).text ?? '';
    },
    close() {
      server.closeAllConnections();
      server.close();
    },
  };
}

/**
 * Subscribe `client` to the asking upstream's `test://counter` (as the gateway names it), wait
 * until `replicas` upstream connections hold the subscription, bump it, and return the URIs
 * of the `resources/updated` the client got; then unsubscribe and wait until none holds it.
 */
export async function subscribeAndBump(client: Client, upstream: AskingUpstream, replicas: number): Promise<string[]> {
  const updated: string[] = [];
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, async (n) => {
    updated.push(n.params.uri);
  });
  const { resources } = await client.listResources();
  const uri = resources.find((r) => r.uri.endsWith('test://counter'))?.uri;
  if (!uri) throw new Error('the gateway lists no test://counter');
  await client.subscribeResource({ uri });
  // Every replica's own upstream connection is subscribed, whichever replica was asked.
  await waitFor(() => upstream.subscribers() === replicas);
  await client.callTool({ name: 'up__bump', arguments: {} });
  await waitFor(() => updated.length > 0);
  const got = [...updated];
  await client.unsubscribeResource({ uri });
  await waitFor(() => upstream.subscribers() === 0);
  return got.map((u) => (u === uri ? 'test://counter' : u));
}
