/**
 * Where a caller's name or URI goes in its view (G2–G4): the owning server and the
 * upstream's own name, or the error that says why it goes nowhere. Returns; never throws.
 * @module
 */
import { HubError, NotInViewError, UpstreamUnavailableError } from '../../errors.js';
import type { Hub } from '../../hub/create-hub.js';
import type { Outcome } from '../relay/index.js';
import type { Route, ServedView } from '../views/index.js';
import { toPublicName } from '../views/index.js';

/** The longest tool or prompt name taken from a caller: the MCP spec's SHOULD for names. */
export const MAX_CALLED_NAME = 128;

/**
 * The owner of a tool or prompt `name`. A name longer than {@link MAX_CALLED_NAME} is
 * refused without being echoed; one whose server is in the view but not connected gets the
 * error naming that server's state (G4); any other unknown name is not in this view.
 */
export function routeName(
  hub: Pick<Hub, 'upstream' | 'getServer'>,
  served: ServedView,
  kind: 'tool' | 'prompt',
  name: string,
): Outcome<Route> {
  if (name.length > MAX_CALLED_NAME) {
    return {
      ok: false,
      error: new HubError('bad_request', `${kind} name is longer than ${MAX_CALLED_NAME} characters`),
    };
  }
  const route = kind === 'tool' ? served.view.tool(name) : served.view.prompt(name);
  if (route) return { ok: true, value: route };
  const owner =
    served.view.naming === 'identity'
      ? served.servers[0]
      : served.servers.find((server) => name.startsWith(toPublicName(server, '')));
  const down = owner && !hub.upstream(owner) ? statusOf(hub, owner) : null;
  if (owner && down) return { ok: false, error: new UpstreamUnavailableError(owner, down.state, down.attempt) };
  return { ok: false, error: new NotInViewError(kind, name) };
}

/** The owner of a resource URI (a listed URI, a `boternity:` URI, or a template match). */
export function routeResource(served: ServedView, uri: string): Outcome<{ server: string; uri: string }> {
  const route = served.view.resource(uri);
  return route ? { ok: true, value: route } : { ok: false, error: new NotInViewError('resource', uri) };
}

/** A server's state and attempt; null when it has no connection actor (being removed). */
function statusOf(hub: Pick<Hub, 'getServer'>, server: string): { state: string; attempt: number } | null {
  try {
    return hub.getServer(server);
  } catch {
    return null;
  }
}
