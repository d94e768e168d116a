/**
 * What a call gets when an upstream's answer cannot be read (SPEC X8): it was over the
 * server's `maxAnswerBytes`, or the stream that was to carry it ended first. Both name the
 * server and are the upstream's failure (`upstream_failed`), never a timeout.
 * @module
 */
import { HubError } from '../errors.js';

/** A message from an upstream over its `maxAnswerBytes`: not read; `closed` when its connection went with it. */
export class UpstreamAnswerTooLargeError extends HubError {
  constructor(
    readonly server: string,
    readonly limit: number,
    readonly closed: boolean,
  ) {
    super(
      'upstream_failed',
      closed
        ? `server "${server}" sent a message over ${limit} bytes (maxAnswerBytes): it was not read, and the connection was closed`
        : `server "${server}" answered over ${limit} bytes (maxAnswerBytes): the answer was not read`,
    );
  }
}

/** The stream that carried (or was to carry) answers ended or broke off: `what` says how. */
export class AnswerStreamError extends HubError {
  constructor(
    readonly server: string,
    what: string,
    options?: { cause: unknown },
  ) {
    super('upstream_failed', `server "${server}" ${what}`, options);
  }
}

/** A stream's failure in a few words: fetch says "terminated" and puts what happened in `cause`. */
export function describeStreamFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? error.cause.message : null;
  return cause && error.name === 'TypeError' ? cause : error.message;
}
