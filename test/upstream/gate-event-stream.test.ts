/**
 * The notification gate on a remote upstream's event streams (issue 17): however the
 * stream is cut into chunks, what comes out is what went in, byte for byte, without the
 * events the gate refused; the gate is asked once per notification event, in order.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { gateEventStream } from '../../src/upstream/gate-event-stream.js';
import { peekNotificationMethod } from '../../src/upstream/peek-method.js';

const encoder = new TextEncoder();

/** Read a stream whole. */
async function readAll(stream: ReadableStream<Uint8Array>): Promise<string> {
  const parts: Uint8Array[] = [];
  for await (const part of stream) parts.push(part);
  return Buffer.concat(parts).toString('utf8');
}

/** A stream of `text` cut at `cuts` (byte offsets). */
function streamOf(text: string, cuts: number[]): ReadableStream<Uint8Array> {
  const bytes = encoder.encode(text);
  const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const pieces: Uint8Array[] = [];
  let from = 0;
  for (const cut of [...at, bytes.length]) {
    if (cut > from) pieces.push(bytes.subarray(from, cut));
    from = Math.max(from, cut);
  }
  return new ReadableStream({
    start(controller) {
      for (const piece of pieces) controller.enqueue(piece);
      controller.close();
    },
  });
}

const method = fc.constantFrom(
  'notifications/message',
  'notifications/progress',
  'notifications/resources/updated',
  'tools/call',
);
const message = fc.oneof(
  fc.record({ method, params: fc.record({ n: fc.nat() }), jsonrpc: fc.constant('2.0') }),
  fc.record({ jsonrpc: fc.constant('2.0'), id: fc.nat(), result: fc.record({ text: fc.string({ maxLength: 30 }) }) }),
  fc.record({ jsonrpc: fc.constant('2.0'), method: fc.string({ maxLength: 20 }).map((s) => `notifications/${s}`) }),
);
const event = fc.record({
  id: fc.option(fc.nat(), { nil: undefined }),
  message,
  newline: fc.constantFrom('\n', '\r\n'),
});
const textOf = ({ id, message: m, newline }: { id: number | undefined; message: unknown; newline: string }) =>
  `event: message${newline}${id === undefined ? '' : `id: ${id}${newline}`}data: ${JSON.stringify(m)}${newline}${newline}`;

describe('gateEventStream', () => {
  it('drops the refused notification events and passes the rest untouched, however it is cut', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(event, { maxLength: 30 }),
        fc.array(fc.nat(5_000), { maxLength: 20 }),
        fc.func(fc.boolean()),
        async (events, cuts, refuse) => {
          const asked: string[] = [];
          const admit = (m: string) => {
            asked.push(m);
            return !refuse(m, asked.length);
          };
          const out = await readAll(gateEventStream(streamOf(events.map(textOf).join(''), cuts), admit));
          // The same decisions, made on the events one by one.
          const expectedAsked: string[] = [];
          const kept = events.filter((e) => {
            const peeked = peekNotificationMethod(JSON.stringify(e.message));
            if (peeked === null) return true;
            expectedAsked.push(peeked);
            return !refuse(peeked, expectedAsked.length);
          });
          expect(asked).toEqual(expectedAsked);
          expect(out).toBe(kept.map(textOf).join(''));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('lets an unfinished event and one too long to hold through as they are', async () => {
    const long = `data: {"method":"notifications/message","params":{"x":"${'y'.repeat(1_200_000)}"}}\n\n`;
    const text = `${long}data: {"method":"notifications/message"}`;
    const out = await readAll(gateEventStream(streamOf(text, [100, 1_100_000]), () => false));
    expect(out).toBe(text);
  });
});
