/**
 * Failures to open an upstream session, reduced to one line that says what happened
 * (`spawn /nope ENOENT`, `HTTP 404 from http://…`, `connect ECONNREFUSED … (http://…)`).
 * @module
 */
import { HubError, systemCodeOf } from '../errors.js';
import { maskUrl } from '../guard/mask-secrets.js';
import type { StderrSink } from './stderr-log.js';

/**
 * Context that makes a message useful: the URL of a remote upstream, and what a remote
 * transport's error class says (`describeRemoteError` in create-transport.ts tells them, so
 * that a stdio start never loads the SDK's HTTP and SSE clients).
 */
export type DescribeOptions = {
  readonly url?: string | undefined;
  /** The HTTP status the error carries as a transport's failed answer; null or absent for none. */
  readonly httpStatus?: number | null;
  /** The error is a transport's "no answer at all" that names no system code (the SSE client's). */
  readonly noAnswer?: boolean;
};

/**
 * One line describing why a connect failed. The URL is shown masked (its password and
 * secret-looking query values, as the API shows the entry): the line becomes `lastError`, an
 * event, a log line, a database row and an audit row.
 */
export function describeConnectError(
  error: unknown,
  { url: given, httpStatus = null, noAnswer = false }: DescribeOptions = {},
): string {
  const url = given === undefined ? undefined : maskUrl(given);
  if (error instanceof HubError) return error.message;
  if (httpStatus !== null) return `HTTP ${httpStatus} from ${url ?? 'upstream'}`;
  if (!(error instanceof Error)) return String(error);
  // fetch reports a network failure as a TypeError ("fetch failed") with the reason in `cause`;
  // the SSE client's error repeats it after its own prefixes.
  const message = (error instanceof TypeError && error.cause instanceof Error ? error.cause.message : error.message)
    .replace(/^SSE error: /, '')
    .replace(/^(TypeError: )?fetch failed: /, '');
  // Some errors quote the URL themselves (fetch refusing one with a user and password).
  const shown = given !== undefined && url !== given ? message.split(given).join(url) : message;
  return url && (noAnswer || isNetworkError(error)) ? `${shown} (${url})` : shown;
}

/** `message` with what a stdio child last wrote to stderr itself (bounded), if anything. */
export function withStderr(message: string, stderr: Pick<StderrSink, 'tail'> | undefined): string {
  const tail = stderr?.tail() ?? '';
  return tail ? `${message}; stderr: ${tail}` : message;
}

export { connectFailed } from './connect-failed.js';

/**
 * No HTTP answer at all: fetch's TypeError with its reason in `cause`, or a system error code
 * (ECONNREFUSED …) on the error or its causes (the SSE client's own comes as `noAnswer`).
 */
function isNetworkError(error: Error): boolean {
  return (error instanceof TypeError && error.cause !== undefined) || systemCodeOf(error) !== null;
}
