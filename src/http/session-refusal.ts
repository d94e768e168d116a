/**
 * How an MCP endpoint answers a session (or a modern view session) that could not open: over
 * a cap (X8) or while stopping, with the status and headers that say when to retry; for a bot
 * or server that does not exist, a 404 whose JSON-RPC error names it. Kept apart from the
 * endpoint so that both of its opening paths answer alike.
 * @module
 */
import { UnknownBotError } from '../errors/bot-errors.js';
import { SessionLimitError, ShuttingDownError, UnknownServerError } from '../errors.js';
import type { RpcRefusal } from './write-json.js';

/** The refusal a session's opening error is answered with; null: not such a refusal (thrown on). */
export function sessionRefusal(error: unknown): (RpcRefusal & { data?: { code: string } }) | null {
  return capRefusal(error) ?? viewRefusal(error);
}

/** How a session (or modern view) refused for a cap (X8) or a shutdown is answered; null: not such a refusal. */
function capRefusal(error: unknown): (RpcRefusal & { data?: undefined }) | null {
  if (error instanceof SessionLimitError) {
    const status = error.which === 'per_token' ? 429 : 503;
    return { status, code: -32000, message: error.message, headers: { 'retry-after': '1' } };
  }
  if (error instanceof ShuttingDownError)
    return { status: 503, code: -32000, message: error.message, headers: { connection: 'close' } };
  return null;
}

/**
 * A view of a bot or server that does not exist: 404 with a JSON-RPC error that names it, so
 * that a client shows why (`bot "x" does not exist`) rather than only its status; `data.code`
 * is the API's error code. Null for other errors.
 */
function viewRefusal(error: unknown): (RpcRefusal & { data: { code: string } }) | null {
  if (!(error instanceof UnknownBotError || error instanceof UnknownServerError)) return null;
  return { status: 404, code: -32602, message: error.message, data: { code: error.code } };
}
