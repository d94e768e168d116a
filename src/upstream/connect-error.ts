/**
 * Failures to open an upstream session, reduced to one line that says what happened
 * (`spawn /nope ENOENT`, `HTTP 404 from http://…`, `connect ECONNREFUSED … (http://…)`).
 * @module
 */
import { HubError } from '../errors.js';
import { httpStatusOf } from './create-transport.js';
import type { StderrSink } from './stderr-log.js';

/** Context that makes a message useful: the URL of a remote upstream. */
export type DescribeOptions = { readonly url?: string | undefined };

/** One line describing why a connect failed. */
export function describeConnectError(error: unknown, { url }: DescribeOptions = {}): string {
  if (error instanceof HubError) return error.message;
  const status = httpStatusOf(error);
  if (status !== null) return `HTTP ${status} from ${url ?? 'upstream'}`;
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? error.cause.message : null;
  // fetch reports network failures as "fetch failed" and puts the reason in `cause`.
  const message = (cause && /fetch failed/.test(error.message) ? cause : error.message)
    .replace(/^SSE error: /, '')
    .replace(/^(TypeError: )?fetch failed: /, '');
  return url && !message.includes(url) && isNetworkError(error) ? `${message} (${url})` : message;
}

/** `message` with what a stdio child last wrote to stderr itself (bounded), if anything. */
export function withStderr(message: string, stderr: Pick<StderrSink, 'tail'> | undefined): string {
  const tail = stderr?.tail() ?? '';
  return tail ? `${message}; stderr: ${tail}` : message;
}

export { connectFailed } from './connect-failed.js';

function isNetworkError(error: Error): boolean {
  return /fetch failed|ECONN|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|EHOSTUNREACH|socket/i.test(
    `${error.message} ${error.cause instanceof Error ? error.cause.message : ''}`,
  );
}
