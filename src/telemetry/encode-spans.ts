/**
 * Spans in OTLP protobuf (issue 21, ADR 035 "Revised"): each span encoded once, as it ends,
 * into a small buffer of its own (the span object is then free to die young); a batch is
 * one `ExportTraceServiceRequest` that groups the encoded spans under their resource and
 * instrumentation scope, whose bytes are encoded once each and kept. The messages and field
 * numbers are opentelemetry-proto's (`trace/v1/trace.proto`, `common/v1/common.proto`), as
 * the OpenTelemetry transformer writes them; a test decodes both and compares.
 * @module
 */
import type { Attributes, AttributeValue, Link } from '@opentelemetry/api';
import type { InstrumentationScope } from '@opentelemetry/core';
import type { Resource } from '@opentelemetry/resources';
import type { ReadableSpan, TimedEvent } from '@opentelemetry/sdk-trace-base';
import { FIXED32, FIXED64, LEN, ProtoWriter, VARINT, varintSize } from './proto-writer.js';

/** One ended span: its `Span` message (with its tag in `ScopeSpans`), and where it belongs. */
export type EncodedSpan = {
  readonly bytes: Buffer;
  readonly resource: Resource;
  readonly scope: InstrumentationScope;
};

/** The span context flags OTLP adds: whether the parent's remoteness is known, and whether it is remote. */
const HAS_IS_REMOTE = 0x100;
const IS_REMOTE = 0x200;

/** Encodes spans and requests; one per exporter, its buffer reused. */
export type SpanEncoder = {
  span(span: ReadableSpan): EncodedSpan;
  request(spans: readonly EncodedSpan[]): Buffer;
};

/** An encoder with its own writer, and the resource and scope bytes it has made. */
export function createSpanEncoder(): SpanEncoder {
  const writer = new ProtoWriter();
  const resources = new WeakMap<Resource, Buffer>();
  const scopes = new WeakMap<InstrumentationScope, Buffer>();

  const once = <K extends object>(cache: WeakMap<K, Buffer>, key: K, write: (w: ProtoWriter, key: K) => void) => {
    let bytes = cache.get(key);
    if (!bytes) {
      writer.reset();
      write(writer, key);
      bytes = writer.copy();
      cache.set(key, bytes);
    }
    return bytes;
  };

  return {
    span(span) {
      writer.reset();
      writer.tag(2, LEN); // ScopeSpans.spans
      const mark = writer.begin(2);
      writeSpan(writer, span);
      writer.end(mark);
      return { bytes: writer.copy(), resource: span.resource, scope: span.instrumentationScope };
    },
    request(spans) {
      // Group by resource, then scope, in the order they first came.
      const groups = new Map<Resource, Map<InstrumentationScope, EncodedSpan[]>>();
      for (const encoded of spans) {
        let byScope = groups.get(encoded.resource);
        if (!byScope) {
          byScope = new Map();
          groups.set(encoded.resource, byScope);
        }
        const list = byScope.get(encoded.scope);
        if (list) list.push(encoded);
        else byScope.set(encoded.scope, [encoded]);
      }
      const parts: Buffer[] = [];
      for (const [resource, byScope] of groups) {
        const resourceBytes = once(resources, resource, writeResource);
        const scopeParts: Buffer[] = [];
        let scopesLength = 0;
        for (const [scope, list] of byScope) {
          const scopeBytes = once(scopes, scope, writeScope);
          const spansLength = list.reduce((sum, e) => sum + e.bytes.length, 0);
          const length = scopeBytes.length + spansLength;
          const head = header(2, length); // ResourceSpans.scope_spans
          scopeParts.push(head, scopeBytes, ...list.map((e) => e.bytes));
          scopesLength += head.length + length;
        }
        const length = resourceBytes.length + scopesLength;
        parts.push(header(1, length), resourceBytes, ...scopeParts); // ExportTraceServiceRequest.resource_spans
      }
      return Buffer.concat(parts);
    },
  };
}

/** A length-delimited field's tag and length. */
function header(field: number, length: number): Buffer {
  const w = new ProtoWriter(12);
  w.tag(field, LEN);
  w.varint(length);
  return w.copy();
}

/** `ResourceSpans.resource` (field 1). */
function writeResource(w: ProtoWriter, resource: Resource): void {
  w.tag(1, LEN);
  const mark = w.begin(2);
  writeAttributes(w, resource.attributes, 1);
  w.tag(2, VARINT); // dropped_attributes_count
  w.varint(0);
  w.end(mark);
  if (resource.schemaUrl) {
    w.tag(3, LEN); // ResourceSpans.schema_url: written after the scopes by the transformer; order does not matter in protobuf
    w.string(resource.schemaUrl);
  }
}

/** `ScopeSpans.scope` (field 1), and its schema URL. */
function writeScope(w: ProtoWriter, scope: InstrumentationScope): void {
  w.tag(1, LEN);
  const mark = w.begin();
  w.tag(1, LEN);
  w.string(scope.name);
  if (scope.version) {
    w.tag(2, LEN);
    w.string(scope.version);
  }
  w.end(mark);
  if (scope.schemaUrl) {
    w.tag(3, LEN);
    w.string(scope.schemaUrl);
  }
}

function writeSpan(w: ProtoWriter, span: ReadableSpan): void {
  const context = span.spanContext();
  w.tag(1, LEN);
  w.hex(context.traceId);
  w.tag(2, LEN);
  w.hex(context.spanId);
  const traceState = context.traceState?.serialize();
  if (traceState) {
    w.tag(3, LEN);
    w.string(traceState);
  }
  if (span.parentSpanContext?.spanId) {
    w.tag(4, LEN);
    w.hex(span.parentSpanContext.spanId);
  }
  w.tag(5, LEN);
  w.string(span.name);
  // OTLP's kinds count from 1 (0 is "unspecified"); the API's from 0.
  w.tag(6, VARINT);
  w.varint(span.kind + 1);
  w.tag(7, FIXED64);
  w.hrTime(span.startTime);
  w.tag(8, FIXED64);
  w.hrTime(span.endTime);
  writeAttributes(w, span.attributes, 9);
  counted(w, 10, span.droppedAttributesCount);
  for (const event of span.events) writeEvent(w, event);
  counted(w, 12, span.droppedEventsCount);
  for (const link of span.links) writeLink(w, link);
  counted(w, 14, span.droppedLinksCount);
  w.tag(15, LEN); // status
  const mark = w.begin();
  if (span.status.message) {
    w.tag(2, LEN);
    w.string(span.status.message);
  }
  counted(w, 3, span.status.code);
  w.end(mark);
  w.tag(16, FIXED32);
  w.fixed32(flagsOf(context.traceFlags, span.parentSpanContext?.isRemote));
}

const flagsOf = (traceFlags: number, remote: boolean | undefined): number =>
  (traceFlags & 0xff) | HAS_IS_REMOTE | (remote ? IS_REMOTE : 0);

/** A count field, left out when 0 (protobuf's default). */
function counted(w: ProtoWriter, field: number, count: number): void {
  if (!count) return;
  w.tag(field, VARINT);
  w.varint(count);
}

function writeEvent(w: ProtoWriter, event: TimedEvent): void {
  w.tag(11, LEN);
  const mark = w.begin(2);
  w.tag(1, FIXED64);
  w.hrTime(event.time);
  w.tag(2, LEN);
  w.string(event.name);
  if (event.attributes) writeAttributes(w, event.attributes, 3);
  counted(w, 4, event.droppedAttributesCount ?? 0);
  w.end(mark);
}

function writeLink(w: ProtoWriter, link: Link): void {
  w.tag(13, LEN);
  const mark = w.begin(2);
  w.tag(1, LEN);
  w.hex(link.context.traceId);
  w.tag(2, LEN);
  w.hex(link.context.spanId);
  const traceState = link.context.traceState?.serialize();
  if (traceState) {
    w.tag(3, LEN);
    w.string(traceState);
  }
  if (link.attributes) writeAttributes(w, link.attributes, 4);
  counted(w, 5, link.droppedAttributesCount ?? 0);
  w.tag(6, FIXED32);
  w.fixed32(flagsOf(link.context.traceFlags, link.context.isRemote));
  w.end(mark);
}

/** Repeated `KeyValue`s in `field`. */
function writeAttributes(w: ProtoWriter, attributes: Attributes, field: number): void {
  for (const key in attributes) {
    if (!Object.hasOwn(attributes, key)) continue;
    const value = attributes[key];
    if (value === undefined) continue;
    w.tag(field, LEN);
    const mark = w.begin(varintSize(key.length * 3 + 8));
    w.tag(1, LEN);
    w.string(key);
    w.tag(2, LEN);
    const valueMark = w.begin();
    writeAnyValue(w, value);
    w.end(valueMark);
    w.end(mark);
  }
}

const MAX_INT64 = 2 ** 63;

/** An `AnyValue`'s one field. */
function writeAnyValue(w: ProtoWriter, value: AttributeValue | null | undefined): void {
  if (typeof value === 'string') {
    w.tag(1, LEN);
    w.string(value);
  } else if (typeof value === 'boolean') {
    w.tag(2, VARINT);
    w.varint(value ? 1 : 0);
  } else if (typeof value === 'number') {
    if (Number.isInteger(value) && value >= -MAX_INT64 && value < MAX_INT64) {
      w.tag(3, VARINT);
      w.int64(value);
    } else {
      w.tag(4, FIXED64);
      w.double(value);
    }
  } else if (Array.isArray(value)) {
    w.tag(5, LEN);
    const mark = w.begin();
    for (const item of value) {
      w.tag(1, LEN);
      const itemMark = w.begin();
      writeAnyValue(w, item);
      w.end(itemMark);
    }
    w.end(mark);
  }
}
