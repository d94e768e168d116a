import { HubError } from '../errors.js';

/** A command line that cannot be run as typed: exit code 2. */
export class UsageError extends HubError {
  constructor(message: string) {
    super('bad_request', message);
  }
}
