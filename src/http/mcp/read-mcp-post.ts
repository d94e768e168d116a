/**
 * The checks the SDK's Streamable HTTP transport makes on a POST (SPEC G1), with its
 * statuses and messages: `Accept` (406), `Content-Type` (415), the body size (413, SPEC X8),
 * JSON (400) and each message against the SDK's `JSONRPCMessageSchema` (400; by its shape first).
 * @module
 */
import type { IncomingMessage } from 'node:http';
import { isJsonContentType } from '@modelcontextprotocol/sdk/shared/mediaType.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { safeParseMessage } from '../../protocol/parse-message.js';
import type { RpcRefusal } from '../io/index.js';
import { readJsonBody } from '../io/index.js';
import { PERIMETER_ANSWERS, rpcRefusalOf } from '../perimeter/index.js';

/** The largest JSON-RPC batch accepted, as the SDK's own transport. */
export const MAX_BATCH_SIZE = 100;

/** The refusal of a body over `maxBytes` (the perimeter's table); the rest is never read, the connection closed after it (`closeAfterLinger`). */
export const tooLarge = (maxBytes: number): RpcRefusal => rpcRefusalOf(PERIMETER_ANSWERS.tooLarge(maxBytes));

/** A refusal of the transport's: its status, JSON-RPC code and message. */
export const refusal = (status: number, code: number, message: string): RpcRefusal => ({ status, code, message });
const NOT_ACCEPTABLE = refusal(
  406,
  -32000,
  'Not Acceptable: Client must accept both application/json and text/event-stream',
);
const NOT_JSON_TYPE = refusal(415, -32000, 'Unsupported Media Type: Content-Type must be application/json');
const NOT_JSON = refusal(400, -32700, 'Parse error: Invalid JSON');
const NOT_JSON_RPC = refusal(400, -32700, 'Parse error: Invalid JSON-RPC message');
const BATCH_TOO_LARGE = refusal(400, -32600, `Invalid Request: Batch must not exceed ${MAX_BATCH_SIZE} messages`);

/** Read a POST's JSON-RPC messages; `body` when the caller has already read it. */
export async function readMcpPost(
  req: IncomingMessage,
  { body, maxBodyBytes }: { body: unknown; maxBodyBytes: number },
): Promise<JSONRPCMessage[] | RpcRefusal> {
  const accept = req.headers.accept ?? '';
  if (!accept.includes('application/json') || !accept.includes('text/event-stream')) return NOT_ACCEPTABLE;
  if (!isJsonContentType(req.headers['content-type'])) return NOT_JSON_TYPE;
  let raw = body;
  if (raw === undefined) {
    const read = await readJsonBody(req, maxBodyBytes);
    if (!read.ok) return read.reason === 'too_large' ? tooLarge(maxBodyBytes) : NOT_JSON;
    raw = read.value;
  }
  const items = Array.isArray(raw) ? raw : [raw];
  if (items.length > MAX_BATCH_SIZE) return BATCH_TOO_LARGE;
  const messages: JSONRPCMessage[] = [];
  for (const item of items) {
    const parsed = safeParseMessage(item);
    if (!parsed.success) return NOT_JSON_RPC;
    messages.push(parsed.data);
  }
  return messages;
}
