/**
 * Chat with a bot (SPEC B4, section 7 `POST /api/bots/{slug}/chat`): one turn answered as
 * server-sent events, each `event:` a {@link ChatEvent} type (`text`, `tool_call`,
 * `tool_result`, then one `final` or `error`) and its `data:` the event as JSON. A bad
 * request (unknown bot or session, a message over the limit) is a JSON error before any
 * stream starts. Also the bot's chat sessions and one session's history.
 * @module
 */
import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { streamSSE } from 'hono/streaming';
import type { BotDeps } from '../../../bots/bot-deps.js';
import { ChatInputSchema } from '../../../bots/chat-schemas.js';
import { requireBotRow } from '../../../bots/get-bot.js';
import { getChatHistory } from '../../../bots/get-chat-history.js';
import { startChat } from '../../../bots/start-chat.js';
import { listChatSessions } from '../../../storage/chat-repo.js';
import { createApi, errorResponses, jsonBody, jsonResponse, wholeNumberQuery } from '../api-schemas.js';
import { ChatHistorySchema, ChatSessionSchema, SlugItemParams, SlugParams } from './bot-api-schemas.js';

const tags = ['bot chat'];

const chat = createRoute({
  method: 'post',
  path: '/{slug}/chat',
  tags,
  summary: 'One chat turn, streamed as server-sent events',
  description:
    'Events: `text` `{type,delta}`, `tool_call` `{type,id,name,arguments}`, `tool_result` `{type,id,name,isError,text,result}`, ' +
    'then exactly one `final` `{type,sessionId,text,usage,rounds}` or `error` `{type,sessionId,reason,message,usage}`. ' +
    'Send `sessionId` back to continue the conversation. Closing the stream interrupts the turn (the history records it).',
  request: { params: SlugParams, body: jsonBody(ChatInputSchema) },
  responses: {
    200: { description: 'The turn as it happens', content: { 'text/event-stream': { schema: z.string() } } },
    ...errorResponses(400, 404, 413, 415),
  },
});
const sessions = createRoute({
  method: 'get',
  path: '/{slug}/chats',
  tags,
  summary: "The bot's chat sessions, most recently active first",
  request: { params: SlugParams, query: z.object({ limit: wholeNumberQuery(1, 1_000).optional() }) },
  responses: {
    200: jsonResponse('The sessions', z.object({ sessions: z.array(ChatSessionSchema) })),
    ...errorResponses(400, 404),
  },
});
const history = createRoute({
  method: 'get',
  path: '/{slug}/chats/{item}',
  tags,
  summary: 'The history of one chat session: messages, tool calls and results, failures, tokens',
  request: { params: SlugItemParams, query: z.object({ limit: wholeNumberQuery(1, 10_000).optional() }) },
  responses: { 200: jsonResponse('The session', z.object({ chat: ChatHistorySchema })), ...errorResponses(400, 404) },
});

/** Routes mounted at `/api/bots` for chat. */
export function botChatRoutes({ bots }: { bots: BotDeps }): OpenAPIHono {
  const routes = createApi();
  routes.openapi(chat, async (c) => {
    const turn = new AbortController();
    const run = await startChat(bots, c.req.valid('param').slug, c.req.valid('json'), { signal: turn.signal });
    return streamSSE(c, async (stream) => {
      // The client went away: stop the provider and the tools; the history records the interruption.
      stream.onAbort(() => turn.abort());
      let n = 0;
      for await (const event of run.events) {
        if (stream.aborted) break;
        await stream.writeSSE({ event: event.type, id: String(++n), data: JSON.stringify(event) });
      }
    }) as never;
  });
  routes.openapi(sessions, async (c) => {
    const bot = await requireBotRow(bots.db, c.req.valid('param').slug);
    const rows = await listChatSessions(bots.db, bot.id, c.req.valid('query').limit ?? 100);
    return c.json(
      {
        sessions: rows.map((r) => ({
          sessionId: r.id,
          title: r.title,
          createdAt: r.createdAt.toISOString(),
          updatedAt: r.lastAt.toISOString(),
        })),
      },
      200,
    );
  });
  routes.openapi(history, async (c) => {
    const { slug, item } = c.req.valid('param');
    const limit = c.req.valid('query').limit;
    return c.json({ chat: await getChatHistory(bots, slug, item, limit ? { limit } : {}) }, 200);
  });
  return routes;
}
