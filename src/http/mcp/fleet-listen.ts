/**
 * `subscriptions/listen` fed fleet-wide (issue 22 part 5, ADR 044): what a replica's modern
 * view hears (its own upstream connections' list changes and resource updates) goes to the
 * listen streams of the same view on every replica, over the fleet bus. A view is named on
 * the bus by a digest of its key (endpoint, owner, client name): the key itself stays in the
 * process. Each replica runs its own upstream connections, so one upstream change is often
 * heard by several replicas: {@link createDelivered} lets each listener have it once. A
 * stream's resources are held on every replica that has its view ({@link holdFleetWide}), so
 * each replica's upstream connection is subscribed to them and its updates are heard.
 * @module
 */
import { createHash, randomUUID } from 'node:crypto';
import type { ServerEvent } from '@modelcontextprotocol/server';

/**
 * What travels for a view (`v`, its digest): an event, with what makes it the same elsewhere;
 * or a stream's resources held (`hold`, sent again while it is open) and let go (`release`).
 */
export type ListenMessage =
  | {
      readonly v: string;
      readonly e: ServerEvent;
      /** A list change: the view's fingerprint of that list after it (absent: a resource update). */
      readonly f?: string;
    }
  | { readonly v: string; readonly hold: string; readonly uris: readonly string[] }
  | { readonly v: string; readonly release: string };

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
 * Once per listener. A list change is the same change when it leaves the list with the same
 * fingerprint: a copy is dropped whichever comes first, and a replica's own events are never
 * held back by its own earlier ones. A resource update says nothing of what changed: another
 * replica's is taken for a copy when one for the same URI was given within `windowMs` (a
 * copy of one upstream change comes within milliseconds, and after this replica's own in
 * practice, having one hop more); this replica's own are always given.
 */
export function createDelivered({ windowMs, now = Date.now }: { windowMs: number; now?: () => number }): Delivered {
  const last = new Map<string, { token: string | undefined; at: number; remote: boolean }>();
  return {
    take(event, token, remote) {
      const key = event.kind === 'resource_updated' ? `${event.kind} ${event.uri}` : event.kind;
      const at = now();
      const prev = last.get(key);
      const copy =
        prev !== undefined &&
        (token !== undefined ? prev.token === token && (remote || prev.remote) : remote && at - prev.at < windowMs);
      if (copy) return false;
      last.set(key, { token, at, remote });
      // Bounded: a view names at most the resources its streams asked about, and the list kinds.
      if (last.size > 512) last.delete(last.keys().next().value as string);
      return true;
    },
  };
}

/** Holds `uris` on a view and resolves with their release (the view's `listenResources`). */
type Listen = (uris: readonly string[]) => Promise<() => Promise<void>>;

/** The resources a view holds for the listen streams of other replicas, by stream id. */
export type RemoteHolds = {
  /** Hold (or keep holding) stream `id`'s `uris`; let go after `expireMs` without word of it. */
  hold(id: string, uris: readonly string[], listen: Listen): void;
  release(id: string): void;
  size(): number;
  close(): void;
};

/** A view's remote holds; `expireMs`: how long one lasts without being announced again (its replica died). */
export function createRemoteHolds({ expireMs }: { expireMs: number }): RemoteHolds {
  const held = new Map<string, { timer: NodeJS.Timeout; release: Promise<() => Promise<void>> }>();
  const release = (id: string) => {
    const found = held.get(id);
    if (!found) return;
    held.delete(id);
    clearTimeout(found.timer);
    void found.release.then((letGo) => letGo()).catch(() => undefined);
  };
  return {
    hold(id, uris, listen) {
      const found = held.get(id);
      if (found) {
        found.timer.refresh();
        return;
      }
      const timer = setTimeout(() => release(id), expireMs);
      timer.unref();
      held.set(id, { timer, release: listen(uris) });
    },
    release,
    size: () => held.size,
    close() {
      for (const id of [...held.keys()]) release(id);
    },
  };
}

/** Announce a local stream's resources of view `v` to the fleet every `refreshMs` while it is open; returns its end. */
export function holdFleetWide(fleet: ListenFleet, v: string, uris: readonly string[], refreshMs: number): () => void {
  const hold = randomUUID();
  const announce = () => fleet.publish({ v, hold, uris });
  announce();
  const timer = setInterval(announce, refreshMs);
  timer.unref();
  return () => {
    clearInterval(timer);
    fleet.publish({ v, release: hold });
  };
}
