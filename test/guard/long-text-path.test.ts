/**
 * An ordinary tool result's text — a sentence, not a name — takes the same long-text paths as
 * a 64 KiB one (ADR 050): the cut of its stdio line, the answer's parts and the audit's parts.
 * The service then keeps that code compiled from its everyday answers, and the first long
 * answer after thousands of short ones does not deoptimize the call path. A threshold raised
 * back past a sentence's length fails here (the benchmark would only show it as a slower
 * 64 KiB window).
 */
import { describe, expect, it } from 'vitest';
import { canonicalJsonParts } from '../../src/guard/canonical-json.js';
import { NATIVE_SCAN_LENGTH } from '../../src/guard/is-plain-ascii.js';
import { createMessageSerializer, textOf } from '../../src/http/mcp/serialize-message.js';
import { LineSplitter } from '../../src/upstream/split-lines.js';

const sentence = 'The forecast for Paris: sunny, 21 degrees.';
const result = { content: [{ type: 'text', text: sentence }], isError: false };
const message = { jsonrpc: '2.0' as const, id: 1, result };

describe('the long-text paths', () => {
  it('start below a sentence and above the keys a message holds', () => {
    expect(sentence.length).toBeGreaterThanOrEqual(NATIVE_SCAN_LENGTH);
    for (const key of ['protocolVersion', 'structuredContent', 'idempotentHint', 'progressToken'])
      expect(key.length).toBeLessThan(NATIVE_SCAN_LENGTH);
  });

  it('take a sentence: its stdio line is cut, its answer and its audit hash go in parts', () => {
    const lines: unknown[] = [];
    new LineSplitter().push(Buffer.from(`${JSON.stringify(message)}\n`), (line) => lines.push(line));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ long: [sentence] });

    const written = createMessageSerializer()(message);
    expect(Array.isArray(written) && written.includes(sentence)).toBe(true);
    expect(textOf(written)).toBe(JSON.stringify(message));

    expect(canonicalJsonParts(result)).toHaveLength(3);
  });

  it('leave a name-sized text on the short ones', () => {
    const short = { content: [{ type: 'text', text: 'ok' }] };
    const lines: unknown[] = [];
    new LineSplitter().push(Buffer.from(`${JSON.stringify({ jsonrpc: '2.0', id: 2, result: short })}\n`), (line) =>
      lines.push(line),
    );
    expect(typeof lines[0]).toBe('string');
    expect(typeof createMessageSerializer()({ jsonrpc: '2.0', id: 2, result: short })).toBe('string');
    expect(canonicalJsonParts(short)).toHaveLength(1);
  });
});
