/**
 * `bnity bot chat SLUG "message" [--session ID]` (SPEC A4, B4): one turn through the
 * running service's `POST /api/bots/{slug}/chat`, printed as it streams: the answer's text
 * on stdout, tool calls and the session id on stderr; `--json` prints each event as one
 * JSON line instead. Exit 1 when the turn ends in an error. Needs the service.
 * @module
 */
import { HubError } from '../errors.js';
import { readSse } from './read-sse.js';
import { resolveTarget, type TargetFlags } from './resolve-target.js';
import { ServiceUnreachableError } from './service-client.js';
import { needService } from './service-or-file.js';

type Event = { type: string; [key: string]: unknown };

/** Open the turn's stream; a refusal (unknown bot, message too long) is the API's one line. */
async function openTurn(url: string, token: string | null, body: unknown, signal: AbortSignal): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
      signal,
    });
  } catch (error) {
    const origin = new URL(url).origin;
    throw new ServiceUnreachableError(origin, (error as { cause?: { code?: string } }).cause?.code ?? 'fetch failed');
  }
  if (response.ok) return response;
  const answer = (await response.json().catch(() => null)) as { error?: { message?: string } } | null;
  throw new HubError(
    response.status === 401 ? 'unauthorized' : 'bad_request',
    answer?.error?.message ?? response.statusText,
  );
}

/** Run `bnity bot chat`. */
export async function botChatCommand(
  slug: string,
  message: string,
  flags: TargetFlags & { session?: string },
  env: NodeJS.ProcessEnv,
): Promise<number> {
  const { client, json } = await resolveTarget(flags, env);
  const stop = new AbortController();
  process.once('SIGINT', () => stop.abort());
  const body = { message, ...(flags.session ? { sessionId: flags.session } : {}) };
  const response = await needService(`chatting with bot "${slug}"`, () =>
    openTurn(`${client.baseUrl}/api/bots/${encodeURIComponent(slug)}/chat`, client.token, body, stop.signal),
  );
  let code = 1;
  for await (const { data } of readSse(response)) {
    const event = data as Event;
    if (json) process.stdout.write(`${JSON.stringify(event)}\n`);
    else if (event.type === 'text') process.stdout.write(String(event.delta));
    else if (event.type === 'tool_call') process.stderr.write(`\n→ ${String(event.name)}\n`);
    else if (event.type === 'tool_result')
      process.stderr.write(`← ${String(event.name)} ${event.isError ? 'failed' : 'answered'}\n`);
    if (event.type === 'final') {
      code = 0;
      const usage = event.usage as { totalTokens: number };
      if (!json) process.stderr.write(`\n(session ${String(event.sessionId)}; ${usage.totalTokens} tokens)\n`);
    }
    if (event.type === 'error' && !json)
      process.stderr.write(`\nbnity: ${String(event.message)} (session ${String(event.sessionId)})\n`);
  }
  return code;
}
