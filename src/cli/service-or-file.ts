/**
 * The CLI's rule (SPEC A4): talk to the running service when there is one, else work on
 * the files of the data directory, and say which it did.
 * @module
 */
import { HubError, ServiceUnreachableError } from '../errors.js';
import { readHomeOwner } from '../storage/home-lock.js';
import type { Target } from './resolve-target.js';

/** What `serviceOrFile` ran: `via` tells the caller which path was taken. */
export type Outcome<T> = { via: 'service' | 'file'; value: T };

/**
 * Run `online`; when nothing answers at the default URL and no service holds the data
 * directory, run `offline` and print `note` (what was done instead) on stderr. A URL the user
 * gave (`--url`, `BOTERNITY_URL`) is never silently replaced by the files.
 */
export async function serviceOrFile<T>(
  target: Target,
  online: () => Promise<T>,
  offline: () => Promise<{ value: T; note: string }>,
): Promise<Outcome<T>> {
  try {
    return { via: 'service', value: await online() };
  } catch (error) {
    if (!(error instanceof ServiceUnreachableError) || target.client.explicit) throw error;
    const owner = await readHomeOwner(target.home);
    if (owner)
      throw new HubError(
        'upstream_unavailable',
        `boternity (pid ${owner.pid}) runs in ${target.home} but nothing answers at ${target.client.baseUrl}: give its address with --url or BOTERNITY_URL`,
      );
    const { value, note } = await offline();
    process.stderr.write(`bnity: no service at ${target.client.baseUrl}; ${note}\n`);
    return { via: 'file', value };
  }
}

/** Run `online`, which only a running service can do; with none, say so naming `what`. */
export async function needService<T>(what: string, online: () => Promise<T>): Promise<T> {
  try {
    return await online();
  } catch (error) {
    if (error instanceof ServiceUnreachableError)
      throw new HubError('upstream_unavailable', `${what} needs the running service: ${error.message}`);
    throw error;
  }
}
