/**
 * Server-sent events read from a fetch body (a bot's chat turn): events split anywhere across
 * chunks, CRLF line ends, comments, multi-line data and a last event without its blank line.
 */
import { describe, expect, it } from 'vitest';
import { readEventStream } from '../../src/ui/read-event-stream.js';

const streamOf = (...chunks: string[]) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
      controller.close();
    },
  });

const collect = async (body: ReadableStream<Uint8Array>) => {
  const events = [];
  for await (const event of readEventStream(body)) events.push(event);
  return events;
};

describe('readEventStream', () => {
  it('reads events whatever the chunking', async () => {
    const text =
      'event: text\nid: 1\ndata: {"type":"text","delta":"Hel"}\n\n: heartbeat\n\nevent: final\ndata: {"a":1}\n\n';
    const whole = await collect(streamOf(text));
    expect(whole).toEqual([
      { event: 'text', data: '{"type":"text","delta":"Hel"}' },
      { event: 'final', data: '{"a":1}' },
    ]);
    const byChar = await collect(streamOf(...text.split('')));
    expect(byChar).toEqual(whole);
  });

  it('takes CRLF and CR line ends, even split between chunks, and joins data lines', async () => {
    expect(await collect(streamOf('event: a\r', '\ndata: one\r\ndata: two\r\n\r', '\n', 'data: é\r\r'))).toEqual([
      { event: 'a', data: 'one\ntwo' },
      { event: 'message', data: 'é' },
    ]);
  });

  it('yields a last event that ends without a blank line, and nothing for events without data', async () => {
    expect(await collect(streamOf('event: empty\n\nevent: last\ndata: x'))).toEqual([{ event: 'last', data: 'x' }]);
  });

  it('decodes characters split across chunks', async () => {
    const bytes = new TextEncoder().encode('data: héllo\n\n');
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.slice(0, 8));
        controller.enqueue(bytes.slice(8));
        controller.close();
      },
    });
    expect(await collect(body)).toEqual([{ event: 'message', data: 'héllo' }]);
  });
});
