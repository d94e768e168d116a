/**
 * What an endpoint says about itself, in either era (`initialize` in 2025-11-25,
 * `server/discover` in 2026-07-28): boternity's name and every kind of capability, or, on
 * one server's endpoint (a transparent proxy), that server's name, version, instructions
 * and kinds of capability as of now.
 * @module
 */
import type { Implementation, ServerCapabilities } from '@modelcontextprotocol/sdk/types.js';
import type { CallPath } from '../requests/index.js';
import { sanitizeUpstreamText } from '../requests/index.js';
import type { ViewSpec } from '../views/index.js';

/** An endpoint's server info, capabilities and instructions. */
export type EndpointIdentity = {
  readonly serverInfo: Implementation;
  readonly capabilities: ServerCapabilities;
  readonly instructions: string | undefined;
};

const SERVER_INFO: Implementation = { name: 'boternity', version: '0.1.0' };
const CAPABILITIES: ServerCapabilities = {
  tools: { listChanged: true },
  resources: { subscribe: true, listChanged: true },
  prompts: { listChanged: true },
  completions: {},
  logging: {},
};

/** Our capabilities, limited to the kinds the proxied upstream has (list changes are always ours to send). */
function mirrorCapabilities(upstream: ServerCapabilities | undefined): ServerCapabilities {
  const has = (kind: keyof ServerCapabilities) => upstream?.[kind] !== undefined;
  return {
    ...(has('tools') ? { tools: CAPABILITIES.tools } : {}),
    ...(has('resources')
      ? { resources: { listChanged: true, subscribe: upstream?.resources?.subscribe === true } }
      : {}),
    ...(has('prompts') ? { prompts: CAPABILITIES.prompts } : {}),
    ...(has('completions') ? { completions: {} } : {}),
    ...(has('logging') ? { logging: {} } : {}),
  };
}

/** The identity of the endpoint serving `spec`. */
export function endpointIdentity(path: Pick<CallPath, 'hub'>, spec: ViewSpec): EndpointIdentity {
  const proxied = spec.kind === 'server' ? path.hub.upstream(spec.server) : null;
  const raw = proxied?.instructions();
  return {
    serverInfo: proxied?.serverInfo() ?? SERVER_INFO,
    capabilities: proxied ? mirrorCapabilities(proxied.capabilities()) : CAPABILITIES,
    instructions: raw === undefined ? undefined : sanitizeUpstreamText(raw, 2_000) || undefined,
  };
}
