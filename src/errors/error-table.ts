/**
 * The one table of how each local error code is answered (issue 20, ADR 029): its HTTP
 * status (the control API's `{error:{code,message}}` and the MCP endpoints' refusals), its
 * JSON-RPC code on an MCP request, and whether a `tools/call` gets it as a failed tool
 * result (G4). `http/http-errors.ts` (`errorReply`) and `gateway/wire-error.ts`
 * (`toWireError`) read it; nothing else maps errors. A new code does not compile without its
 * row, and test/errors/error-table.test.ts checks every error class against it.
 * @module
 */
import type { HubErrorCode } from './hub-error.js';

/**
 * The JSON-RPC codes the table uses, as the MCP SDK's `ErrorCode` names them (this part
 * imports nothing; the table's test checks that they are the SDK's values).
 */
export const RPC = Object.freeze({
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** The code the SDK's transports give a connection that is going away; also the rate limits' (their 429 body). */
  ConnectionClosed: -32000,
  RequestTimeout: -32001,
});

/** How one code is answered. */
export type ErrorRow = {
  /** The HTTP status. */
  readonly status: number;
  /**
   * The JSON-RPC code; null for a code no MCP request should meet (a config file, the
   * home, the admin's token): there it is our own failure, answered -32603 "internal
   * error in boternity" and logged.
   */
  readonly rpc: number | null;
  /** Upstream trouble: a `tools/call` answers it as a failed tool result the model can read (G4). */
  readonly toolResult: boolean;
};

const row = (status: number, rpc: number | null, toolResult = false): ErrorRow =>
  Object.freeze({ status, rpc, toolResult });

/** Every code's row. */
export const ERROR_TABLE: Readonly<Record<HubErrorCode, ErrorRow>> = Object.freeze({
  config_invalid: row(400, null),
  config_unreadable: row(400, null),
  // The request is fine; the file on disk it would be written into is not (fix it, then retry).
  config_file_invalid: row(409, null),
  unknown_server: row(404, RPC.InvalidParams),
  not_found: row(404, RPC.InvalidParams),
  unknown_bot: row(404, RPC.InvalidParams),
  upstream_unavailable: row(503, RPC.InternalError, true),
  upstream_failed: row(502, RPC.InternalError, true),
  upstream_timeout: row(504, RPC.RequestTimeout, true),
  // The upstream wants an OAuth authorization nobody has given yet (issue 23): an operator's step, not a retry.
  needs_authorization: row(503, RPC.InternalError, true),
  unattributed: row(409, RPC.InternalError),
  unsupported: row(501, RPC.MethodNotFound),
  budget_spent: row(429, RPC.InvalidRequest),
  rate_limited: row(429, RPC.ConnectionClosed),
  unauthorized: row(401, null),
  forbidden: row(403, RPC.InvalidRequest),
  bad_request: row(400, RPC.InvalidParams),
  conflict: row(409, RPC.InvalidParams),
  payload_too_large: row(413, RPC.InvalidParams),
  home_in_use: row(409, null),
  // A session over a cap: 429 for the token's own cap; the service's (`total`) is 503 (http-errors.ts).
  session_limit: row(429, RPC.ConnectionClosed),
  shutting_down: row(503, RPC.ConnectionClosed),
  request_ended: row(409, RPC.ConnectionClosed),
  // The database does not answer what a request needs (a token never seen, a session's end): retry shortly.
  store_unavailable: row(503, RPC.InternalError),
  internal: row(500, null),
});
