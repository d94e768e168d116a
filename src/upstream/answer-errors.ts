/**
 * What a call gets when an upstream's answer cannot be read (SPEC X8): it was over the
 * server's `maxAnswerBytes`, or the stream that was to carry it ended first. Both name the
 * server and are the upstream's failure (`upstream_failed`), never a timeout.
 * @module
 */

/** A stream's failure in a few words: fetch says "terminated" and puts what happened in `cause`. */
export function describeStreamFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? error.cause.message : null;
  return cause && error.name === 'TypeError' ? cause : error.message;
}
