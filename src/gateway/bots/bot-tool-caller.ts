/**
 * The bots' tool port over the gateway's call path (SPEC B4, G3, X7): each bot lists and
 * calls tools through one in-process session of its own view, opened on first use and kept
 * (closed when the bot is deleted), so allow/deny lists, quarantine, the sanitizer, the
 * session's first-list wait and the audit (under the bot's id) apply exactly as to an agent
 * on `/mcp/bots/{slug}`. That session is served no bot tools: a bot cannot call itself.
 * An upstream's sampling caused by these calls goes to the bot's provider unless the server
 * says `"sampling": "client"` or `"deny"` (`ownBot`): there is no agent behind such a
 * session to answer anything else.
 * @module
 */

import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import type { Context } from '@opentelemetry/api';
import type { BotToolCaller } from '../../bots/ports.js';
import type { CallPath } from '../requests/index.js';
import { callTool, listItems, NO_AGENT } from '../requests/index.js';
import type { AgentSession, SessionContext } from '../session/index.js';
import { attachAgentSession } from '../session/index.js';

/** The port, and the end of a bot's session. */
export type GatewayBotToolCaller = BotToolCaller & {
  /** End bot `slug`'s session (the bot was deleted); a later call opens a new one. */
  forget(slug: string): Promise<void>;
};

/** Create the port over `path`. */
export function createBotToolCaller({ path, now }: { path: CallPath; now: () => number }): GatewayBotToolCaller {
  const open = new Map<string, AgentSession>();
  const sessionOf = (slug: string): AgentSession => {
    const found = open.get(slug);
    // A session the gateway closed (at shutdown) is not reused.
    if (found && path.sessions.get(found.id) === found) return found;
    const session = attachAgentSession(
      { path, now },
      { spec: { kind: 'bot', slug }, label: `bot:${slug}`, clientId: `bot:${slug}`, channel: NO_AGENT, ownBot: true },
    );
    open.set(slug, session);
    return session;
  };
  const contextOf = (
    session: AgentSession,
    signal: AbortSignal,
    onProgress?: (progress: Progress) => void,
    trace: Context | null = null,
  ): SessionContext => ({
    session,
    signal,
    channel: session.channel,
    progress: onProgress ? async (progress) => onProgress(progress) : null,
    trace,
  });
  return {
    listTools: (slug) => listItems(path, contextOf(sessionOf(slug), new AbortController().signal), 'tools'),
    callTool: (slug, name, args, { signal, onProgress, trace }) =>
      callTool(path, contextOf(sessionOf(slug), signal, onProgress, trace), { name, arguments: args }),
    async forget(slug) {
      const session = open.get(slug);
      open.delete(slug);
      await session?.close();
    },
  };
}
