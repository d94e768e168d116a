import { CallToolRequestParamsSchema, JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { callToolParams, parseMessage, safeParseMessage } from '../../src/protocol/parse-message.js';

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

  it('answers as the SDK union does at the edges of the checks made without zod', () => {
    const edges: unknown[] = [
      ...[2 ** 53, 2 ** 53 - 1, -(2 ** 53), 0, -0, 1e21, 1.5, -7].flatMap((id) => [
        { jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'x' } },
        { jsonrpc: '2.0', id, result: { content: [] } },
      ]),
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { _meta: { progressToken: 1.5 } } },
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { _meta: { progressToken: 1 }, name: 'x' } },
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: [] },
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: null },
      { jsonrpc: '2.0', id: 1, result: { _meta: { progressToken: {} } } },
      { jsonrpc: '2.0', id: 1, result: [] },
      { jsonrpc: '2.0', id: 1, result: null },
      { jsonrpc: '2.0', id: 1, result: { x: 1 }, method: 'y' },
      JSON.parse('{"jsonrpc":"2.0","id":1,"method":"m","params":{"__proto__":{"a":1},"b":2}}'),
      JSON.parse('{"jsonrpc":"2.0","id":1,"result":{"__proto__":[1],"content":[]}}'),
      JSON.parse('{"jsonrpc":"2.0","id":1,"method":"m","params":{"constructor":"x"}}'),
      JSON.parse('{"jsonrpc":"2.0","id":1,"result":{"constructor":{"prototype":1}}}'),
      JSON.parse('{"__proto__":{"jsonrpc":"2.0"},"id":1,"method":"m"}'),
      { jsonrpc: '2.0', id: 1, method: 'm', params: Object.create(null) },
      Object.assign(Object.create(null), { jsonrpc: '2.0', id: 1, method: 'm' }),
    ];
    for (const value of edges) expect(ours(value), JSON.stringify(value)).toEqual(union(value));
    const key = fc.oneof(
      fc.constantFrom('__proto__', 'constructor', '_meta', 'name', 'arguments', 'content'),
      fc.string(),
    );
    const object = fc.dictionary(key, fc.jsonValue(), { maxKeys: 4 }).map((o) => JSON.parse(JSON.stringify(o)));
    const id = fc.oneof(fc.integer(), fc.double(), fc.string(), fc.constantFrom(2 ** 53, -0, 1e300));
    const near = fc.record(
      {
        jsonrpc: fc.constantFrom('2.0', '1.0'),
        id,
        method: fc.oneof(fc.string(), fc.integer()),
        params: fc.oneof(object, fc.jsonValue()),
        result: fc.oneof(object, fc.jsonValue()),
      },
      { requiredKeys: ['jsonrpc'] },
    );
    fc.assert(
      fc.property(near, (value) => {
        expect(ours(value)).toEqual(union(value));
      }),
      { numRuns: 3_000 },
    );
  });

  it('gives back the very message when it is a plain request or result (no copy of a call)', () => {
    const call = { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } };
    const answer = { jsonrpc: '2.0', id: 4, result: { content: [{ type: 'text', text: 'hi' }] } };
    for (const message of [call, answer]) {
      const parsed = safeParseMessage(message);
      expect(parsed.success && parsed.data).toBe(message);
    }
  });

  it('throws the union error for what is not a message', () => {
    expect(() => parseMessage({ jsonrpc: '2.0', id: 1 })).toThrow(/invalid/i);
    expect(parseMessage({ jsonrpc: '2.0', method: 'ping', id: 3 })).toEqual({ jsonrpc: '2.0', method: 'ping', id: 3 });
  });
});

describe('callToolParams', () => {
  const sdk = (value: unknown) => {
    const parsed = CallToolRequestParamsSchema.safeParse(value);
    return parsed.success ? { ok: true, data: parsed.data } : { ok: false, issues: parsed.error.issues };
  };
  const ours = (value: unknown) => {
    const parsed = callToolParams.safeParse(value);
    return parsed.success ? { ok: true, data: parsed.data } : { ok: false, issues: parsed.error.issues };
  };

  it("answers as the SDK's schema does, data and issues, for params of any shape", () => {
    const edges: unknown[] = [
      { name: 'echo', arguments: { text: 'hi' } },
      { name: 'echo' },
      { name: 'echo', arguments: [] },
      { name: 'echo', arguments: null },
      { name: 7 },
      { name: 'echo', extra: 1 },
      { name: 'echo', _meta: { progressToken: 'p' } },
      { name: 'echo', task: { ttl: 5 } },
      JSON.parse('{"name":"echo","arguments":{"constructor":"x"}}'),
      JSON.parse('{"name":"echo","arguments":{"__proto__":{"a":1}}}'),
      JSON.parse('{"name":"echo","__proto__":{"arguments":1}}'),
      { name: 'echo', arguments: Object.create(null) },
      null,
      [],
      'echo',
    ];
    for (const value of edges) expect(ours(value), JSON.stringify(value)).toEqual(sdk(value));
    const key = fc.oneof(
      fc.constantFrom('__proto__', 'constructor', '_meta', 'task', 'name', 'arguments'),
      fc.string(),
    );
    const object = fc.dictionary(key, fc.jsonValue(), { maxKeys: 4 }).map((o) => JSON.parse(JSON.stringify(o)));
    const params = fc.record(
      {
        name: fc.oneof(fc.string(), fc.jsonValue()),
        arguments: fc.oneof(object, fc.jsonValue()),
        other: fc.jsonValue(),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(fc.oneof(params, object, fc.jsonValue()), (value) => {
        expect(ours(value)).toEqual(sdk(value));
      }),
      { numRuns: 3_000 },
    );
  });
});
