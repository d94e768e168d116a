/**
 * A modern request's channel (ADR 013): logging reaches the agent only at or above the
 * `_meta` log level (none without one), progress and other notifications pass, and an
 * upstream's requests are asked as input requests (a URL elicitation without its 2025 id).
 */
import { describe, expect, it } from 'vitest';
import type { InputAsker, InputRequestSpec } from '../../../src/gateway/modern/input-flows.js';
import { modernContext } from '../../../src/gateway/modern/modern-channel.js';
import type { AgentSession } from '../../../src/gateway/session/agent-session.js';

const session = { id: 's' } as AgentSession;
const signal = new AbortController().signal;
const log = (level: 'debug' | 'warning' | 'error') => ({
  method: 'notifications/message' as const,
  params: { level, data: level },
});

function asker() {
  const sent: unknown[] = [];
  const asked: InputRequestSpec[] = [];
  const it: InputAsker = {
    ask: async (request) => {
      asked.push(request);
      return { action: 'decline' };
    },
    notify: async (n) => void sent.push(n),
  };
  return { it, sent, asked };
}

describe('the modern channel', () => {
  it('passes logging at or above the _meta level, and none without one', async () => {
    const at = asker();
    const ctx = modernContext(session, { capabilities: {}, logLevel: 'warning', progress: true }, at.it, signal);
    for (const level of ['debug', 'warning', 'error'] as const) await ctx.channel.notify(log(level));
    await ctx.progress?.({ progress: 1, total: 2 });
    expect(at.sent.map((n) => (n as { params: { data?: string } }).params.data ?? 'progress')).toEqual([
      'warning',
      'error',
      'progress',
    ]);
    const none = asker();
    const quiet = modernContext(session, { capabilities: {}, logLevel: null, progress: false }, none.it, signal);
    await quiet.channel.notify(log('error'));
    expect(none.sent).toEqual([]);
    expect(quiet.progress).toBeNull();
  });

  it('asks elicitation as an input request without the 2025 elicitationId', async () => {
    const at = asker();
    const ctx = modernContext(
      session,
      { capabilities: { elicitation: {} }, logLevel: null, progress: false },
      at.it,
      signal,
    );
    expect(ctx.channel.clientCapabilities()).toEqual({ elicitation: {} });
    await ctx.channel.elicit(
      { mode: 'url', message: 'sign in', url: 'https://example.test/x', elicitationId: 'e1' },
      { signal, timeout: 1_000 },
    );
    expect(at.asked).toEqual([
      { method: 'elicitation/create', params: { mode: 'url', message: 'sign in', url: 'https://example.test/x' } },
    ]);
  });
});
