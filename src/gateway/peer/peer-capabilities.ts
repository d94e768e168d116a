/**
 * What boternity declares to every upstream (SPEC G6). A module of its own so that
 * `main.ts` has it before the upstreams spawn without loading the relay and the SDK.
 * @module
 */
import type { ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';

/** What boternity declares to every upstream: sampling, elicitation and roots (relayed to agents). */
export const PEER_CAPABILITIES: ClientCapabilities = {
  sampling: {},
  elicitation: { form: {}, url: {} },
  roots: { listChanged: true },
};
