/**
 * JSON-RPC ids must be unique among a session's requests in flight (SPEC G1): a second
 * request under the id of one in flight would take over the first one's stream, and the
 * first would never be answered. This finds such an id in a POST before anything of it runs.
 * @module
 */
import type { RequestId } from '@modelcontextprotocol/sdk/types.js';

/** A request id a POST may not use, and the one line that says why. */
export type ClashingRequestId = { readonly id: RequestId; readonly message: string };

/** The first of `requests`' ids already in `inFlight`, or used twice among them; null: none. */
export function clashingRequestId(
  requests: readonly { readonly id: RequestId }[],
  inFlight: ReadonlyMap<RequestId, unknown>,
): ClashingRequestId | null {
  const seen = new Set<RequestId>();
  for (const { id } of requests) {
    const named = `request id ${JSON.stringify(id)}`;
    if (inFlight.has(id)) return { id, message: `Invalid Request: ${named} is already in flight on this session` };
    if (seen.has(id)) return { id, message: `Invalid Request: ${named} appears more than once in this batch` };
    seen.add(id);
  }
  return null;
}
