/**
 * Wait until a server just added or connected leaves `connecting` (connected, or failed and
 * retrying, or disabled), following `/api/events?server=NAME` so nothing is polled. A spinner
 * shows on a terminal; nothing extra is printed when stderr is piped.
 * @module
 */
import type { ServerStatus } from '../hub/server-status.js';
import { readSse } from './read-sse.js';
import type { ServiceClient } from './service-client.js';

/** Events after which a server is no longer `connecting`. */
const SETTLED = new Set(['connected', 'reconnecting', 'needs_authorization', 'disabled', 'removed']);

/**
 * Subscribe, run `start` (the request that makes the server connect), then resolve with the
 * server's status once it has settled, or as it is after `timeoutMs`.
 */
export async function waitFirstState(
  client: ServiceClient,
  name: string,
  start: () => Promise<unknown>,
  { timeoutMs = 45_000, label = `connecting ${name}` }: { timeoutMs?: number; label?: string } = {},
): Promise<ServerStatus> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  const spinner = process.stderr.isTTY
    ? (await import('nanospinner')).createSpinner(label, { stream: process.stderr }).start()
    : null;
  const status = () =>
    client.get<{ server: ServerStatus }>(`/api/servers/${encodeURIComponent(name)}`).then((r) => r.server);
  try {
    const stream = await client.open(`/api/events?server=${encodeURIComponent(name)}`, controller.signal);
    const events = readSse(stream);
    await start();
    for (;;) {
      const now = await status();
      if (now.state !== 'connecting') return now;
      let next: IteratorResult<{ event: string }>;
      do next = await events.next().catch(() => ({ done: true, value: undefined }));
      while (!next.done && !SETTLED.has(next.value.event));
      if (next.done) return await status();
    }
  } finally {
    clearTimeout(timer);
    controller.abort();
    spinner?.clear();
  }
}

/** `connected, 13 tools`, or what went wrong, for people. */
export function describeState(s: ServerStatus): string {
  if (s.state === 'connected') return `connected, ${s.toolCount} tool${s.toolCount === 1 ? '' : 's'}`;
  if (s.state === 'reconnecting')
    return `not connected: ${s.lastError ?? 'unknown error'} (retry ${s.attempt} in ${Math.ceil((s.nextDelayMs ?? 0) / 1000)} s)`;
  if (s.state === 'needs_authorization')
    return `needs authorization${s.authorizationServer ? ` at ${s.authorizationServer}` : ''}: run 'bnity mcp auth ${s.name}'`;
  if (s.state === 'disabled')
    return `disabled${s.disabledReason ? ` (${s.disabledReason})` : ''}${s.lastError ? `: ${s.lastError}` : ''}`;
  return `${s.state} (still connecting; see 'bnity mcp status ${s.name}')`;
}
