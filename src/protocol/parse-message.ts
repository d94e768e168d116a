/**
 * One JSON-RPC message checked against the SDK's schemas (ADR 015 §10). The SDK's
 * `JSONRPCMessageSchema` is a union of four strict schemas tried in order, so a response
 * fails twice before it matches, and each failure builds its issues: the schema the
 * message's own keys name is tried first here, and only a message it refuses goes through
 * the union. The four are strict (a request has `method` and `id`, a notification `method`
 * and no `id`, a result `result`, an error `error`), so the answer is the union's, always.
 * @module
 */
import {
  JSONRPCErrorResponseSchema,
  type JSONRPCMessage,
  JSONRPCMessageSchema,
  JSONRPCNotificationSchema,
  JSONRPCRequestSchema,
  JSONRPCResultResponseSchema,
} from '@modelcontextprotocol/sdk/types.js';

type Parsed = { success: true; data: JSONRPCMessage } | { success: false; error: Error };

/** The schema a value of this shape can only match, or null to let the union decide. */
function schemaFor(value: object) {
  if ('method' in value) return 'id' in value ? JSONRPCRequestSchema : JSONRPCNotificationSchema;
  if ('result' in value) return JSONRPCResultResponseSchema;
  if ('error' in value) return JSONRPCErrorResponseSchema;
  return null;
}

/** `JSONRPCMessageSchema.safeParse(value)`, by the shortest way. */
export function safeParseMessage(value: unknown): Parsed {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const schema = schemaFor(value);
    const parsed = schema?.safeParse(value);
    if (parsed?.success) return { success: true, data: parsed.data as JSONRPCMessage };
  }
  const parsed = JSONRPCMessageSchema.safeParse(value);
  return parsed.success ? { success: true, data: parsed.data } : { success: false, error: parsed.error };
}

/** `JSONRPCMessageSchema.parse(value)`, by the shortest way: throws the union's error. */
export function parseMessage(value: unknown): JSONRPCMessage {
  const parsed = safeParseMessage(value);
  if (parsed.success) return parsed.data;
  throw parsed.error;
}
