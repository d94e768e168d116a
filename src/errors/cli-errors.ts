/**
 * The errors of the `bnity` command line (re-exported by `errors.ts`).
 * @module
 */
import { HubError } from './hub-error.js';

/** Nothing answers at the service URL; the CLI may fall back to the files. */
export class ServiceUnreachableError extends HubError {
  constructor(
    readonly url: string,
    reason: string,
    options?: { cause?: unknown },
  ) {
    super(
      'upstream_unavailable',
      `nothing answers at ${url} (${reason}): start the service with 'bnity serve', or give its address with --url or BOTERNITY_URL`,
      options,
    );
  }
}

/** A command line that cannot be run as typed: exit code 2. */
export class UsageError extends HubError {
  constructor(message: string) {
    super('bad_request', message);
  }
}
