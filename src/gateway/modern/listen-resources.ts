/**
 * The resources a modern client's `subscriptions/listen` stream asks about (ADR 013): while
 * the stream is open its view session holds a subscription to each (counted over the
 * view's streams, so the upstream hears `subscribe` from the first and `unsubscribe` after
 * the last), and the upstream's `resources/updated` reaches the stream through the view
 * session. A URI outside the view, or one its upstream refuses, stays silent.
 * @module
 */

import type { CallPath } from '../requests/index.js';
import { subscribeResource, unsubscribeResource } from '../requests/index.js';
import type { AgentSession } from '../session/index.js';
import { quietContext } from './modern-channel.js';

/** Hold `uris` for one stream of `session`; resolves with the release for when it ends. */
export async function listenResources(
  path: CallPath,
  session: AgentSession,
  streams: Map<string, number>,
  uris: readonly string[],
): Promise<() => Promise<void>> {
  const held = [...new Set(uris)];
  const ctx = quietContext(session, new AbortController().signal);
  await Promise.all(
    held.map(async (uri) => {
      const count = streams.get(uri) ?? 0;
      streams.set(uri, count + 1);
      if (count === 0) await subscribeResource(path, ctx, { uri }).catch(() => undefined);
    }),
  );
  return async () => {
    await Promise.all(
      held.map(async (uri) => {
        const count = (streams.get(uri) ?? 1) - 1;
        if (count > 0) {
          streams.set(uri, count);
          return;
        }
        streams.delete(uri);
        await unsubscribeResource(path, ctx, { uri }).catch(() => undefined);
      }),
    );
  };
}
