/** Outgoing messages as JSON, with a large listing serialized once (ADR 006). */
import { describe, expect, it } from 'vitest';
import { createMessageSerializer, textOf } from '../../../src/http/mcp/serialize-message.js';

const tools = Array.from({ length: 100 }, (_, i) => ({ name: `t${i}`, description: `Tool é ${i}` }));

describe('createMessageSerializer', () => {
  it('writes what JSON.stringify writes, for small and large results alike', () => {
    const serialize = createMessageSerializer();
    const messages = [
      { jsonrpc: '2.0' as const, id: 1, result: { content: [{ type: 'text', text: 'hi' }] } },
      { jsonrpc: '2.0' as const, id: 'x', result: { tools, nextCursor: undefined, _meta: { a: 1 } } },
      { jsonrpc: '2.0' as const, id: 2, error: { code: -32602, message: 'no' } },
      { jsonrpc: '2.0' as const, method: 'notifications/progress', params: { progress: 1, progressToken: 't' } },
    ];
    for (const message of messages) {
      expect(JSON.parse(textOf(serialize(message)))).toEqual(JSON.parse(JSON.stringify(message)));
    }
  });

  it('sends the bytes of a listing it has seen again, without serializing it again', () => {
    const serialize = createMessageSerializer();
    const first = serialize({ jsonrpc: '2.0', id: 1, result: { tools } });
    const second = serialize({ jsonrpc: '2.0', id: 2, result: { tools } });
    expect(Array.isArray(first) && Array.isArray(second)).toBe(true);
    const listing = (parts: readonly (Buffer | string)[]) => parts.find((p) => p.length > 1_000);
    expect(listing(second as readonly Buffer[])).toBe(listing(first as readonly Buffer[]));
    expect(JSON.parse(textOf(second))).toEqual({ jsonrpc: '2.0', id: 2, result: { tools } });
    // Another array with the same content is another listing: serialized for itself.
    const copy = serialize({ jsonrpc: '2.0', id: 3, result: { tools: [...tools] } });
    expect(listing(copy as readonly Buffer[])).not.toBe(listing(first as readonly Buffer[]));
  });

  it('writes a result with a long text block as JSON.stringify does, plain or not', () => {
    const serialize = createMessageSerializer();
    const plain = 'x'.repeat(64 * 1024);
    for (const text of [plain, `${plain}"quoted"\n`, `${plain}é\u0000`]) {
      const message = {
        jsonrpc: '2.0' as const,
        id: 7,
        result: {
          content: [
            { type: 'text', text, annotations: { priority: 1 }, skipped: undefined },
            { type: 'image', data: 'aGk=', mimeType: 'image/png' },
            { type: 'text', text: 'short' },
          ],
          isError: false,
          structuredContent: { text },
        },
      };
      const written = serialize(message);
      expect(textOf(written)).toBe(JSON.stringify(message));
      // A plain text goes as it is, in a part of its own (the very string: no copy); one that
      // JSON escapes is text.
      if (text === plain) expect(Array.isArray(written) && written.some((part) => part === plain)).toBe(true);
      else expect(typeof written).toBe('string');
    }
  });
});
