/**
 * The errors of config writes besides `ConfigError` (re-exported by `errors.ts`).
 * @module
 */
import { HubError } from './hub-error.js';

/** The lock of `path` could not be had in time: nothing was written. */
export class FileLockedError extends HubError {
  constructor(
    readonly path: string,
    waitedMs: number,
  ) {
    super(
      'conflict',
      `${path} is being changed by another process (lock ${path}.lock still held after ${waitedMs} ms): nothing was written; try again`,
    );
  }
}
