/**
 * The error a connect fails with. Its own module, apart from `connect-error.ts` (which reads
 * the SDK transports' errors): the credential read on the way to a stdio spawn needs only
 * this, and importing that one loaded the SDK's transports and schemas before the first
 * spawn (about 40 ms of a start's CPU: issue 20).
 * @module
 */
import { HubError } from '../errors.js';

/** The error `connectUpstream` rejects with: code `upstream_failed`, the original as `cause`. */
export function connectFailed(message: string, cause?: unknown): HubError {
  return new HubError('upstream_failed', message, { cause });
}
