/**
 * Our OTLP encoding of spans (encode-spans.ts) against the OpenTelemetry transformer's: the
 * same spans, both encodings decoded into a canonical tree (fields by number, proto3 zero
 * defaults left out), must be equal; and the real receiver of the tests reads ours.
 */
import { context, SpanKind, SpanStatusCode, TraceFlags, trace } from '@opentelemetry/api';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSpanEncoder } from '../../src/telemetry/encode-spans.js';
import { decodeTraces } from '../support/otlp-receiver.js';

type Tree = [number, unknown][];

/** A protobuf message as a tree; a length-delimited field that parses whole as a message is one, else its bytes in hex. */
function decode(bytes: Uint8Array): Tree | null {
  const out: Tree = [];
  let at = 0;
  const varint = (): bigint | null => {
    let value = 0n;
    for (let shift = 0n; at < bytes.length && shift < 70n; shift += 7n) {
      const b = bytes[at++] as number;
      value |= BigInt(b & 0x7f) << shift;
      if (b < 0x80) return value;
    }
    return null;
  };
  while (at < bytes.length) {
    const tag = varint();
    if (tag === null || tag >> 3n === 0n) return null;
    const field = Number(tag >> 3n);
    const wire = Number(tag & 7n);
    if (wire === 0) {
      const v = varint();
      if (v === null) return null;
      if (v !== 0n) out.push([field, v]);
    } else if (wire === 1 || wire === 5) {
      const size = wire === 1 ? 8 : 4;
      if (at + size > bytes.length) return null;
      const raw = Buffer.from(bytes.subarray(at, at + size));
      at += size;
      if (raw.some((b) => b !== 0)) out.push([field, raw.toString('hex')]);
    } else if (wire === 2) {
      const length = varint();
      if (length === null || at + Number(length) > bytes.length) return null;
      const inner = bytes.subarray(at, at + Number(length));
      at += Number(length);
      out.push([field, decode(inner) ?? Buffer.from(inner).toString('hex')]);
    } else return null;
  }
  // Fields in number order; a repeated field keeps its own order (a stable sort).
  return out.sort((a, b) => a[0] - b[0]);
}

/** Spans made by the SDK itself, ended, of every shape the encoder must carry. */
function makeSpans(attributes: Record<string, unknown>[], names: string[]) {
  const memory = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'boternity', 'service.version': '1.2.3', 'host.cores': 2 }),
    spanProcessors: [new SimpleSpanProcessor(memory)],
  });
  const tracer = provider.getTracer('boternity', '0.1.0');
  const other = provider.getTracer('other');
  const remote = trace.setSpanContext(context.active(), {
    traceId: '0af7651916cd43dd8448eb211c80319c',
    spanId: 'b7ad6b7169203331',
    traceFlags: TraceFlags.SAMPLED,
    isRemote: true,
  });
  names.forEach((name, i) => {
    const kinds = [SpanKind.INTERNAL, SpanKind.SERVER, SpanKind.CLIENT, SpanKind.PRODUCER, SpanKind.CONSUMER];
    const span = (i % 3 === 2 ? other : tracer).startSpan(
      name,
      { kind: kinds[i % kinds.length] as SpanKind, attributes: attributes[i % attributes.length] as never },
      i % 2 ? remote : undefined,
    );
    if (i % 4 === 1) span.addEvent('backoff', { 'delay.ms': 1500, reason: 'connect refused ✗' });
    if (i % 4 === 2) span.setStatus({ code: SpanStatusCode.ERROR, message: `failed: ${name}` });
    if (i % 4 === 3) span.setStatus({ code: SpanStatusCode.OK });
    if (i % 5 === 4)
      span.addLink({
        context: { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7', traceFlags: 0 },
        attributes: { why: 'retry' },
      });
    span.end();
  });
  return memory.getFinishedSpans();
}

/** `spans` added to one encoder, sealed: one request; and a second batch from the same encoder, to show it starts empty. */
function encodeAll(spans: readonly ReadableSpan[]): Buffer {
  const encoder = createSpanEncoder();
  for (const span of spans) encoder.add(span);
  const sealed = encoder.seal();
  expect(sealed.count).toBe(spans.length);
  for (const span of spans) encoder.add(span);
  expect(encoder.seal().bytes).toEqual(sealed.bytes);
  return sealed.bytes;
}

const attributeValue = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ minLength: 120, maxLength: 200 }),
  fc.boolean(),
  fc.integer(),
  fc.double({ noNaN: true }),
  fc.constantFrom(0, -1, 2 ** 40, -(2 ** 40), 0.5),
  fc.array(fc.string({ maxLength: 8 }), { maxLength: 4 }),
  fc.array(fc.integer(), { maxLength: 4 }),
);

describe('createSpanEncoder', () => {
  it('encodes what the OpenTelemetry transformer encodes, for any attributes, names, kinds, events, links, status', () => {
    fc.assert(
      fc.property(
        fc.array(fc.dictionary(fc.string({ minLength: 1, maxLength: 20 }), attributeValue, { maxKeys: 8 }), {
          minLength: 1,
          maxLength: 4,
        }),
        fc.array(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 60 }), { minLength: 1, maxLength: 12 }),
        (attributes, names) => {
          const spans = makeSpans(attributes, names);
          const ours = encodeAll(spans);
          const theirs = ProtobufTraceSerializer.serializeRequest(spans) as Uint8Array;
          expect(decode(ours)).toEqual(decode(theirs));
        },
      ),
      { numRuns: 150 },
    );
  });

  it('carries long strings (lengths of two and three bytes) and many spans in one request', () => {
    const long = { text: 'x'.repeat(20_000), unicode: 'é'.repeat(100), edge: 'y'.repeat(127) };
    const spans = makeSpans(
      [long, {}],
      Array.from({ length: 40 }, (_, i) => `span ${i}`),
    );
    const ours = encodeAll(spans);
    expect(decode(ours)).toEqual(decode(ProtobufTraceSerializer.serializeRequest(spans) as Uint8Array));
    const received = decodeTraces(ours);
    expect(received).toHaveLength(40);
    expect(received[0]?.attributes.text).toBe(long.text);
    expect(received[0]?.resource['service.name']).toBe('boternity');
    expect(received.map((span) => span.name).sort()).toEqual(spans.map((span) => span.name).sort());
  });
});
