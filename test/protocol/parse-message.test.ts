import { JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseMessage, safeParseMessage } from '../../src/protocol/parse-message.js';

/** What the SDK's union says of `value`: the parsed message, or that it refuses it. */
const union = (value: unknown) => {
  const parsed = JSONRPCMessageSchema.safeParse(value);
  return parsed.success ? { ok: true, data: parsed.data } : { ok: false };
};
const ours = (value: unknown) => {
  const parsed = safeParseMessage(value);
  return parsed.success ? { ok: true, data: parsed.data } : { ok: false };
};

const samples: unknown[] = [
  { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } },
  { jsonrpc: '2.0', id: 'a', method: 'ping' },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 2, _meta: { x: 1 } } },
  { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'x' }], extra: true } },
  { jsonrpc: '2.0', id: 1, result: {} },
  { jsonrpc: '2.0', id: 2, error: { code: -32601, message: 'Method not found', data: { a: 1 } } },
  { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' } },
  // Refused by every schema, or only by the one the keys point to.
  { jsonrpc: '2.0', id: null, method: 'ping' },
  { jsonrpc: '2.0', id: 1, method: 'ping', result: {} },
  { jsonrpc: '2.0', id: 1, result: {}, error: { code: 1, message: 'x' } },
  { jsonrpc: '1.0', id: 1, method: 'ping' },
  { jsonrpc: '2.0', id: 1.5, method: 'ping' },
  { jsonrpc: '2.0', id: 1, method: 7 },
  { jsonrpc: '2.0', id: 1, error: { code: 'x', message: 'y' } },
  { jsonrpc: '2.0', id: 1 },
  { jsonrpc: '2.0', method: 'x', extra: 1 },
  [],
  [{ jsonrpc: '2.0', method: 'x' }],
  null,
  'text',
  42,
  Object.create(null),
];

describe('safeParseMessage', () => {
  it('answers as the SDK union does, message by message', () => {
    for (const value of samples) expect(ours(value), JSON.stringify(value)).toEqual(union(value));
  });

  it('answers as the SDK union does for any JSON value and any message-shaped object', () => {
    const field = fc.oneof(fc.jsonValue(), fc.constant('2.0'), fc.constant(1), fc.constant('ping'));
    const messageLike = fc.record(
      { jsonrpc: field, id: field, method: field, params: field, result: field, error: field },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), messageLike), (value) => {
        expect(ours(value)).toEqual(union(value));
      }),
      { numRuns: 2_000 },
    );
  });

  it('throws the union error for what is not a message', () => {
    expect(() => parseMessage({ jsonrpc: '2.0', id: 1 })).toThrow(/invalid/i);
    expect(parseMessage({ jsonrpc: '2.0', method: 'ping', id: 3 })).toEqual({ jsonrpc: '2.0', method: 'ping', id: 3 });
  });
});
