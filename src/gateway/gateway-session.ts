/**
 * One agent session on the gateway: its SDK server, its view, its resource subscriptions,
 * and (for `scope: "session"` servers) its own upstream connections.
 * @module
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { LiveUpstream } from '../upstream/types.js';
import type { AggregatedView } from './aggregate.js';
import type { ViewSpec } from './effective-servers.js';

import type { Naming } from './public-names.js';

export type { Naming };

/** A live agent session. */
export type GatewaySession = {
  readonly id: string;
  readonly spec: ViewSpec;
  readonly naming: Naming;
  /** Where it came in, for logs: `/mcp`, `/mcp/bots/x`, `stdio`. */
  readonly label: string;
  /** Who opened it, for the audit: `admin`, a token id, or `stdio`. */
  readonly clientId: string | null;
  readonly server: Server;
  /** Public resource URIs the agent subscribed to. */
  readonly subscriptions: Set<string>;
  /** Upstream connections of this session alone (servers with `scope: "session"`). */
  readonly ownUpstreams: Map<string, Promise<LiveUpstream>>;
  /** What the agent was last shown, to tell whether a list changed. */
  fingerprint: AggregatedView['fingerprint'] | null;
  /** The logging level the agent asked for; its own connections opened later get it too. */
  loggingLevel: string | null;
  lastActivity: number;
  /** Whether the idle sweep may close it (not a stdio session). */
  readonly idles: boolean;
};
