/**
 * How an MCP endpoint answers a session (or a modern view session) that could not open: over
 * a cap (X8) or while stopping, with the status and headers that say when to retry; for a bot
 * or server that does not exist, a 404 whose JSON-RPC error names it. Kept apart from the
 * endpoint so that both of its opening paths answer alike. The status and headers are the
 * HTTP mapping's (`http-errors.ts`), the code and message the wire mapping's (`wire-error.ts`):
 * this file only says which errors are such refusals.
 * @module
 */
import {
  type HubError,
  SessionLimitError,
  ShuttingDownError,
  UnknownBotError,
  UnknownServerError,
} from '../../errors.js';
import { toWireError } from '../../gateway/requests/index.js';
import type { RpcRefusal } from '../io/index.js';
import { httpAnswerOf } from '../perimeter/index.js';

/** The refusal a session's opening error is answered with; null: not such a refusal (thrown on). */
export function sessionRefusal(error: unknown): (RpcRefusal & { data?: { code: string } }) | null {
  const cap = error instanceof SessionLimitError || error instanceof ShuttingDownError;
  // A view of a bot or server that does not exist: its JSON-RPC error names it, so that a
  // client shows why (`bot "x" does not exist`) rather than only its status; `data.code` is
  // the API's error code.
  const view = error instanceof UnknownBotError || error instanceof UnknownServerError;
  if (!cap && !view) return null;
  const refused = error as HubError;
  const wire = toWireError(refused);
  if (!wire) return null;
  const { status, headers } = httpAnswerOf(refused);
  return {
    status,
    code: wire.code,
    message: wire.message,
    headers,
    ...(view ? { data: { code: refused.code } } : {}),
  };
}
