/**
 * An upstream peer whose parts are still being built: the upstreams are spawned before the
 * database, audit, budgets and bots exist (issue 8, time to first call), and what an
 * upstream asks or reports meanwhile waits for the peer they make (nothing is dropped).
 * @module
 */
import type { ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import type { UpstreamPeer } from './types.js';

/** The peer `ready` gives, answering in order from now on; `capabilities` are declared at once. */
export function deferPeer(ready: Promise<UpstreamPeer>, capabilities: ClientCapabilities): UpstreamPeer {
  // A peer that never comes fails the requests that wait for it, not the process.
  ready.catch(() => undefined);
  return {
    capabilities,
    createMessage: async (server, params, signal) => (await ready).createMessage(server, params, signal),
    elicit: async (server, params, signal) => (await ready).elicit(server, params, signal),
    listRoots: async (server, params, signal) => (await ready).listRoots(server, params, signal),
    logged: async (server, params) => (await ready).logged(server, params),
    resourceUpdated(server, uri) {
      // A peer that never came means the service did not start: nobody to tell.
      ready.then((peer) => peer.resourceUpdated(server, uri)).catch(() => undefined);
    },
  };
}
