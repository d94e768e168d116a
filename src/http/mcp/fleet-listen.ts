/**
 * `subscriptions/listen` fed fleet-wide (issue 22 part 5, ADR 044): what a replica's modern
 * view hears (its own upstream connections' list changes and resource updates) goes to the
 * listen streams of the same view on every replica, over the fleet bus. A view is named on
 * the bus by a digest of its key (endpoint, owner, client name): the key itself stays in the
 * process. Each replica runs its own upstream connections, so one upstream change is often
 * heard by several replicas: {@link createDelivered} lets each listener have it once.
 * @module
 */
import { createHash } from 'node:crypto';
import type { ServerEvent } from '@modelcontextprotocol/server';

/** A view's event as it travels: the view's digest, the event, and what makes it the same elsewhere. */
export type ListenMessage = {
  readonly v: string;
  readonly e: ServerEvent;
  /** A list change: the view's fingerprint of that list after it (absent: a resource update). */
  readonly f?: string;
};

/** The fleet as the listen streams use it (a topic of the fleet bus); null on SQLite. */
export type ListenFleet = {
  publish(message: ListenMessage): void;
  /** `self`: the message is this replica's own. Resolves once listening. */
  subscribe(handler: (message: ListenMessage, self: boolean) => void): Promise<unknown>;
};

/** A view key's name on the bus. */
export const viewDigest = (key: string): string => createHash('sha256').update(key).digest('base64url');

/** The fingerprint a list event is told apart by: the view's, of that list, as it is now. */
export function listToken(
  event: ServerEvent,
  fingerprint: { tools: string; resources: string; prompts: string } | null | undefined,
): string | undefined {
  if (!fingerprint) return undefined;
  if (event.kind === 'tools_list_changed') return fingerprint.tools;
  if (event.kind === 'prompts_list_changed') return fingerprint.prompts;
  if (event.kind === 'resources_list_changed') return fingerprint.resources;
  return undefined;
}

/** What a view's streams were last given of each kind (and each resource). */
export type Delivered = {
  /** Whether the event is new to the view's listeners (and now recorded); `remote`: another replica's. */
  take(event: ServerEvent, token: string | undefined, remote: boolean): boolean;
};

/**
 * Once per listener: a list change is the same change when it leaves the list with the same
 * fingerprint; a resource update is the same when it names the same URI within `windowMs`.
 * Only a copy is dropped (one of the two came from another replica): a replica's own events
 * are never held back by its own earlier ones.
 */
export function createDelivered({ windowMs, now = Date.now }: { windowMs: number; now?: () => number }): Delivered {
  const last = new Map<string, { token: string | undefined; at: number; remote: boolean }>();
  return {
    take(event, token, remote) {
      const key = event.kind === 'resource_updated' ? `${event.kind} ${event.uri}` : event.kind;
      const at = now();
      const prev = last.get(key);
      const same = prev && (token !== undefined ? prev.token === token : at - prev.at < windowMs);
      if (same && (remote || prev.remote)) return false;
      last.set(key, { token, at, remote });
      // Bounded: a view names at most the resources its streams asked about, and the list kinds.
      if (last.size > 512) last.delete(last.keys().next().value as string);
      return true;
    },
  };
}
