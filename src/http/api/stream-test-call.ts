/**
 * A test-tool call answered as server-sent events (`Accept: text/event-stream`, ADR 026):
 * `progress` events `{progress,total?,message?}` as the upstream reports them, then one
 * `result` `{result,durationMs}` (the JSON answer's body) or `error`
 * `{error:{code,message},status,durationMs}`. The stream starts with the first progress or
 * the answer: a call refused before either (a tool the view hides, a full queue) is the same
 * JSON error, with the same status, as without the stream.
 * @module
 */

import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import type { Context } from 'hono';
import { streamSSE } from 'hono/streaming';
import { errorReply } from '../perimeter/index.js';
import type { TestCallAnswer, TestCallFailure } from './run-test-call.js';

/** A progress notification as the stream carries it: the three fields MCP defines. */
const progressOf = ({ progress, total, message }: Progress) => ({
  progress,
  ...(total === undefined ? {} : { total }),
  ...(message === undefined ? {} : { message }),
});

/**
 * Answer `c` with the events of the call `start` makes (it gets the progress listener);
 * `toError` turns the call's failure into the API's error.
 */
export async function streamTestCall(
  c: Context,
  start: (onProgress: (progress: Progress) => void) => Promise<TestCallAnswer>,
  toError: (error: unknown) => unknown,
): Promise<Response> {
  // Progress heard before the stream is open waits here, in order.
  const early: Progress[] = [];
  let live: ((progress: Progress) => void) | null = null;
  let heard: () => void = () => undefined;
  const firstNews = new Promise<null>((resolve) => {
    heard = () => resolve(null);
  });
  const outcome = start((progress) => {
    if (live) return live(progress);
    early.push(progress);
    heard();
  }).then(
    (answer) => ({ ok: true as const, answer }),
    (failure: TestCallFailure) => ({ ok: false as const, failure }),
  );
  const first = await Promise.race([outcome, firstNews]);
  if (first && !first.ok) throw toError(first.failure.error);
  return streamSSE(c, async (stream) => {
    let writing: Promise<void> = Promise.resolve();
    const write = (event: string, data: unknown) => {
      writing = writing.then(() =>
        stream.aborted ? undefined : stream.writeSSE({ event, data: JSON.stringify(data) }),
      );
      return writing;
    };
    for (const progress of early) void write('progress', progressOf(progress));
    live = (progress) => void write('progress', progressOf(progress));
    const end = await outcome;
    if (end.ok) return write('result', end.answer);
    const reply = errorReply(toError(end.failure.error));
    return write('error', {
      error: reply?.body.error ?? { code: 'internal', message: 'internal error' },
      status: reply?.status ?? 500,
      durationMs: end.failure.durationMs,
    });
  });
}
