/**
 * Wires an {@link UpstreamPeer} into a new SDK client (G6): the upstream's sampling,
 * elicitation and roots requests and its logging and resource-updated notifications reach
 * the peer, which never sees the client itself.
 * @module
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { UpstreamPeer } from './types.js';

/** Register the peer's handlers on `client` (before it connects); returns it. */
export function attachPeer(client: Client, server: string, peer: UpstreamPeer): Client {
  client.setRequestHandler(CreateMessageRequestSchema, (request, extra) =>
    peer.createMessage(server, request.params, extra.signal),
  );
  client.setRequestHandler(ElicitRequestSchema, (request, extra) => peer.elicit(server, request.params, extra.signal));
  client.setRequestHandler(ListRootsRequestSchema, (request, extra) =>
    peer.listRoots(server, request.params, extra.signal),
  );
  client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) =>
    peer.logged(server, notification.params),
  );
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
    peer.resourceUpdated(server, notification.params.uri);
  });
  return client;
}
