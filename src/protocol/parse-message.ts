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
  type CallToolRequest,
  CallToolRequestParamsSchema,
  JSONRPCErrorResponseSchema,
  type JSONRPCMessage,
  JSONRPCMessageSchema,
  JSONRPCNotificationSchema,
  JSONRPCRequestSchema,
  JSONRPCResultResponseSchema,
} from '@modelcontextprotocol/sdk/types.js';

type Parsed = { success: true; data: JSONRPCMessage } | { success: false; error: Error };

/**
 * A plain object of JSON whose keys zod copies as they are: no own `__proto__` (zod's copy
 * assigns it, which sets the copy's prototype instead). Anything else goes to zod.
 */
function plainObject(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    Object.getPrototypeOf(value) === Object.prototype &&
    !Object.hasOwn(value, '__proto__')
  );
}

/** `RequestIdSchema`: a string, or a number zod's `int()` takes (a safe integer). */
const requestId = (id: unknown): boolean => typeof id === 'string' || Number.isSafeInteger(id);

/** Whether every key of `value` is one of `keys`. */
function keysWithin(value: object, keys: readonly string[]): boolean {
  for (const key in value) if (!keys.includes(key)) return false;
  return true;
}

const REQUEST_KEYS = ['jsonrpc', 'id', 'method', 'params'];
const RESULT_KEYS = ['jsonrpc', 'id', 'result'];

/**
 * The two messages of every call, checked without zod (issue 20: zod's parses of a call's
 * request and answer were 3 % of the service's CPU). Only a value zod takes and gives back equal (a strict
 * object of these keys, params or result a plain object without `_meta`, which zod checks
 * further) passes here; `parse-message.test.ts` holds this to the SDK's schemas.
 */
function plainMessage(value: Record<string, unknown>): value is JSONRPCMessage {
  if (value.jsonrpc !== '2.0' || !requestId(value.id)) return false;
  if ('method' in value) {
    if (typeof value.method !== 'string' || !keysWithin(value, REQUEST_KEYS)) return false;
    return !('params' in value) || (plainObject(value.params) && !('_meta' in value.params));
  }
  return 'result' in value && keysWithin(value, RESULT_KEYS) && plainObject(value.result) && !('_meta' in value.result);
}

/** The schema a value of this shape can only match, or null to let the union decide. */
function schemaFor(value: object) {
  if ('method' in value) return 'id' in value ? JSONRPCRequestSchema : JSONRPCNotificationSchema;
  if ('result' in value) return JSONRPCResultResponseSchema;
  if ('error' in value) return JSONRPCErrorResponseSchema;
  return null;
}

/** `JSONRPCMessageSchema.safeParse(value)`, by the shortest way. */
export function safeParseMessage(value: unknown): Parsed {
  if (plainObject(value) && plainMessage(value)) return { success: true, data: value };
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

const CALL_PARAMS_KEYS = ['name', 'arguments'];

/**
 * `CallToolRequestParamsSchema`, by the shortest way: params of a name and arguments (a plain
 * object) are given back as they are, as zod would give them; anything else (`_meta`, `task`,
 * keys zod strips, a failure and its issues) is zod's to answer.
 */
export const callToolParams = {
  safeParse(value: unknown): ReturnType<typeof CallToolRequestParamsSchema.safeParse> {
    if (
      plainObject(value) &&
      typeof value.name === 'string' &&
      keysWithin(value, CALL_PARAMS_KEYS) &&
      (!('arguments' in value) || plainObject(value.arguments))
    ) {
      return { success: true, data: value as CallToolRequest['params'] };
    }
    return CallToolRequestParamsSchema.safeParse(value);
  },
};
