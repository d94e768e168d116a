/**
 * The requests of an upstream connection under traces (issue 21): one relayed under a span
 * (`options.trace`) is sent as a CLIENT span's child, its params' `_meta` carrying the span
 * (SEP-414); one outside any span is sent as it is. Used only when traces are on: off, the
 * connection's requests are the plain ones and nothing of this runs.
 * @module
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Tracer } from '@opentelemetry/api';
import { sendTraced } from '../telemetry/index.js';
import type { UpstreamRequestOptions, UpstreamSession } from './types.js';

/** The requests a relayed call makes. */
export type UpstreamRequests = Pick<
  UpstreamSession,
  'callTool' | 'readResource' | 'getPrompt' | 'complete' | 'subscribe' | 'unsubscribe'
>;

/** A subscription's params, as {@link sendTraced} takes them. */
type UriParams = { uri: string; _meta?: Record<string, unknown> };

/** `plain`, each request under `options.trace` sent under a CLIENT span of `tracer` over `client`. */
export function traceRequests(
  plain: UpstreamRequests,
  client: Client,
  tracer: Tracer,
  server: string,
  transport: UpstreamSession['transport'],
): UpstreamRequests {
  const send = <P extends { _meta?: Record<string, unknown> | undefined }, R>(
    method: string,
    params: P,
    options: UpstreamRequestOptions | undefined,
    run: (params: P) => Promise<R>,
  ): Promise<R> =>
    options?.trace ? sendTraced(tracer, options.trace, { method, params, server, transport }, run) : run(params);
  return {
    callTool: (params, options) =>
      send(
        'tools/call',
        params,
        options,
        async (p) => (await client.callTool(p, undefined, options)) as CallToolResult,
      ),
    readResource: (params, options) => send('resources/read', params, options, (p) => client.readResource(p, options)),
    getPrompt: (params, options) => send('prompts/get', params, options, (p) => client.getPrompt(p, options)),
    complete: (params, options) => send('completion/complete', params, options, (p) => client.complete(p, options)),
    subscribe: async (uri, options) => {
      if (!options?.trace) return plain.subscribe(uri, options);
      await send('resources/subscribe', { uri } as UriParams, options, (p) => client.subscribeResource(p, options));
    },
    unsubscribe: async (uri, options) => {
      if (!options?.trace) return plain.unsubscribe(uri, options);
      await send('resources/unsubscribe', { uri } as UriParams, options, (p) => client.unsubscribeResource(p, options));
    },
  };
}
