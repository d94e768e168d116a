/**
 * `boundBody` over generated bodies and chunkings: what it passes on is the body itself,
 * an event stream in whole lines; it fails exactly when the body (JSON) or one event (SSE)
 * is over the bound, however the bytes were cut, and says how the body ended once.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { boundBody } from '../../src/upstream/bound-body.js';

const encoder = new TextEncoder();

/** `bytes` cut at `cuts` (positions), as a stream. */
function chunked(bytes: Uint8Array, cuts: number[]): ReadableStream<Uint8Array> {
  const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const parts: Uint8Array[] = [];
  let from = 0;
  for (const cut of [...at, bytes.length]) {
    if (cut > from) parts.push(bytes.slice(from, cut));
    from = Math.max(from, cut);
  }
  return new ReadableStream({
    pull(controller) {
      const part = parts.shift();
      if (part) controller.enqueue(part);
      else controller.close();
    },
  });
}

async function readAll(body: ReadableStream<Uint8Array>) {
  const out: Uint8Array[] = [];
  try {
    for await (const chunk of body) out.push(chunk);
    return { out, error: null };
  } catch (error) {
    return { out, error: error as Error };
  }
}

const run = (bytes: Uint8Array, cuts: number[], maxBytes: number, events: boolean) => {
  const ends: { error: Error | null; resumable: boolean }[] = [];
  let done = 0;
  const body = boundBody(chunked(bytes, cuts), {
    maxBytes,
    events,
    tooLarge: () => new Error('too large'),
    onEnd: (error, resumable) => ends.push({ error, resumable }),
    onDone: () => done++,
  });
  return readAll(body).then((read) => ({ ...read, ends, done }));
};

/** An event stream of events with these data lengths, with id lines where asked. */
const eventStream = (events: { size: number; id: boolean }[], eol: string) =>
  events.map((e) => `${e.id ? `id: 7${eol}` : ''}data: ${'y'.repeat(e.size)}${eol}${eol}`).join('');

describe('boundBody', () => {
  it('passes an event stream on whole lines, fails at the first event over the bound, whatever the chunking', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ size: fc.nat(300), id: fc.boolean() }), { minLength: 1, maxLength: 8 }),
        fc.constantFrom('\n', '\r\n', '\r'),
        fc.array(fc.nat(5_000), { maxLength: 12 }),
        fc.integer({ min: 50, max: 400 }),
        async (events, eol, cuts, maxBytes) => {
          const text = eventStream(events, eol);
          const { out, error, ends, done } = await run(encoder.encode(text), cuts, maxBytes, true);
          // An event's bytes: its id line and its data line, without their line ends.
          const over = events.some((e) => (e.id ? 5 : 0) + 6 + e.size > maxBytes);
          expect(error?.message ?? null).toBe(over ? 'too large' : null);
          expect(ends).toHaveLength(1);
          expect(done).toBe(1);
          const passed = Buffer.concat(out).toString('utf8');
          expect(text.startsWith(passed)).toBe(true);
          if (!over) {
            expect(passed).toBe(text);
            expect(ends[0]?.resumable).toBe(events.some((e) => e.id));
          }
          for (const chunk of out) expect([0x0a, 0x0d]).toContain(chunk.at(-1));
        },
      ),
      { numRuns: 150 },
    );
  });

  it('bounds a JSON body as a whole, whatever the chunking', async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat(2_000), fc.array(fc.nat(3_000), { maxLength: 10 }), async (size, cuts) => {
        const bytes = encoder.encode(`{"text":"${'y'.repeat(size)}"}`);
        const { out, error, ends } = await run(bytes, cuts, 1_000, false);
        expect(error?.message ?? null).toBe(bytes.length > 1_000 ? 'too large' : null);
        expect(Buffer.concat(out).length).toBeLessThanOrEqual(1_000);
        expect(ends).toEqual([{ error, resumable: false }]);
        if (!error) expect(Buffer.concat(out)).toEqual(Buffer.from(bytes));
      }),
      { numRuns: 100 },
    );
  });

  it('tells nothing when the reader cancels it, but lets go of it', async () => {
    const ends: unknown[] = [];
    let done = 0;
    const body = boundBody(chunked(encoder.encode('{"a":1}'), [2]), {
      maxBytes: 100,
      events: false,
      tooLarge: () => new Error('too large'),
      onEnd: (error) => ends.push(error),
      onDone: () => done++,
    });
    await body.cancel();
    expect(ends).toEqual([]);
    expect(done).toBe(1);
  });
});
