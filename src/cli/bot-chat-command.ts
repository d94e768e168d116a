/**
 * `bnity bot chat SLUG "message" [--session ID]` (SPEC A4, B4): one turn through the
 * running service's `POST /api/bots/{slug}/chat`, printed as it streams: the answer's text
 * on stdout; on stderr each tool call as a block with its arguments and result (seed 003:
 * JSON pretty-printed, coloured on a terminal, long parts folded unless `--full`), and the
 * session id; `--json` prints each event as one JSON line instead. Exit 1 when the turn ends
 * in an error. Needs the service.
 * @module
 */
import { HubError, ServiceUnreachableError } from '../errors.js';
import { formatToolCall, formatToolResult } from './format-tool-block.js';
import { readSse } from './read-sse.js';
import { resolveTarget, type TargetFlags } from './resolve-target.js';
import { needService } from './service-or-file.js';
import { shouldColor } from './should-color.js';

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
  flags: TargetFlags & { session?: string; color?: boolean; full?: boolean },
  env: NodeJS.ProcessEnv,
): Promise<number> {
  const { client, json } = await resolveTarget(flags, env);
  // The blocks and notes go to stderr, so stderr is the terminal that decides the colour.
  const blocks = { color: shouldColor(flags.color, env, process.stderr), full: flags.full === true };
  const stop = new AbortController();
  process.once('SIGINT', () => stop.abort());
  const body = { message, ...(flags.session ? { sessionId: flags.session } : {}) };
  const response = await needService(`chatting with bot "${slug}"`, () =>
    openTurn(`${client.baseUrl}/api/bots/${encodeURIComponent(slug)}/chat`, client.token, body, stop.signal),
  );
  let code = 1;
  // Answer text written since the last block: the next block starts on a line of its own.
  let midText = false;
  const startLine = () => (midText ? '\n' : '');
  for await (const { data } of readSse(response)) {
    const event = data as Event;
    if (json) process.stdout.write(`${JSON.stringify(event)}\n`);
    else if (event.type === 'text') {
      process.stdout.write(String(event.delta));
      midText ||= String(event.delta) !== '';
    } else if (event.type === 'tool_call') {
      process.stderr.write(`${startLine()}${formatToolCall(String(event.name), event.arguments, blocks)}`);
      midText = false;
    } else if (event.type === 'tool_result')
      process.stderr.write(
        formatToolResult({ isError: event.isError === true, text: String(event.text ?? '') }, blocks),
      );
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
