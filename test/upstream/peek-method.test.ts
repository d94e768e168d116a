/**
 * Reading a notification's method without parsing its line (issue 17): whatever the line,
 * the method told is the message's own, and only a notification's; the common shapes are
 * recognised.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { peekNotificationMethod } from '../../src/upstream/peek-method.js';

const method = fc.oneof(
  fc.constantFrom(
    'notifications/message',
    'notifications/progress',
    'notifications/resources/updated',
    'notifications/tools/list_changed',
    'tools/call',
    'sampling/createMessage',
    'ping',
  ),
  fc.string({ maxLength: 40 }).map((s) => `notifications/${s}`),
  fc.string({ maxLength: 40 }),
);
const params = fc.oneof(
  fc.constant(undefined),
  fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 3 })),
  // Strings built to look like a method key inside the params.
  fc.record({ note: fc.constant('{"method":"notifications/fake"}'), method: method }),
);
/** A JSON-RPC message (notification, request, response) with its keys in some order. */
const message = fc.oneof(
  fc.record({ jsonrpc: fc.constant('2.0'), method, params }, { requiredKeys: ['jsonrpc', 'method'] }),
  fc.record(
    { jsonrpc: fc.constant('2.0'), id: fc.oneof(fc.integer(), fc.string()), method, params },
    {
      requiredKeys: ['jsonrpc', 'id', 'method'],
    },
  ),
  fc.record({ jsonrpc: fc.constant('2.0'), id: fc.integer(), result: fc.record({ method, params }) }),
);
const shuffled = (value: Record<string, unknown>, order: number[]) => {
  const keys = Object.keys(value);
  const sorted = keys.map((k, i) => [order[i % order.length] ?? 0, k] as const).sort((a, b) => a[0] - b[0]);
  return Object.fromEntries(sorted.map(([, k]) => [k, value[k]]));
};

describe('peekNotificationMethod', () => {
  it('reads the method of the shapes the SDKs write', () => {
    const params = { level: 'info', data: 'x' };
    // TypeScript SDK: the notification's own keys, then jsonrpc; Python SDK: jsonrpc first.
    expect(peekNotificationMethod(JSON.stringify({ method: 'notifications/message', params, jsonrpc: '2.0' }))).toBe(
      'notifications/message',
    );
    expect(peekNotificationMethod(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/progress', params }))).toBe(
      'notifications/progress',
    );
    expect(peekNotificationMethod('{ "jsonrpc" : "2.0" ,\t"method": "notifications/x" }')).toBe('notifications/x');
  });

  it('says nothing of requests, responses, escapes and garbage', () => {
    for (const line of [
      '{"jsonrpc":"2.0","method":"tools/call","id":1}',
      '{"jsonrpc":"2.0","id":1,"method":"notifications/message"}',
      '{"jsonrpc":"2.0","id":1,"result":{"method":"notifications/message"}}',
      '{"method":"notifications\\/message"}',
      '{"params":{"method":"notifications/message"},"jsonrpc":"2.0"}',
      '{"jsonrpc":"2.0","method":',
      'notifications/message',
      '',
    ])
      expect(peekNotificationMethod(line), line).toBeNull();
  });

  it('for any message in any key order: null, or the method of a notification that has it', () => {
    fc.assert(
      fc.property(message, fc.array(fc.nat(10), { minLength: 1, maxLength: 6 }), (value, order) => {
        const line = JSON.stringify(shuffled(value as Record<string, unknown>, order));
        const peeked = peekNotificationMethod(line);
        if (peeked === null) return;
        const parsed = JSON.parse(line) as Record<string, unknown>;
        expect(parsed.method).toBe(peeked);
        expect(peeked.startsWith('notifications/')).toBe(true);
        // A request that starts with its method is told too: it is named like a notification,
        // which no MCP request is, and is rate-limited like one.
        if ('id' in parsed)
          expect(Object.keys(parsed).indexOf('id')).toBeGreaterThan(Object.keys(parsed).indexOf('method'));
      }),
    );
  });
});
