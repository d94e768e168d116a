/**
 * Spans in OTLP protobuf (issue 21, ADR 035 "Revised"): each span encoded once, as it ends,
 * into the batch being built (the span object is then free to die young, and nothing of it
 * waits as an object of its own); a sealed batch is one `ExportTraceServiceRequest` that
 * groups the spans under their resource and instrumentation scope, whose bytes are encoded
 * once each and kept. The messages and field
 * numbers are opentelemetry-proto's (`trace/v1/trace.proto`, `common/v1/common.proto`), as
 * the OpenTelemetry transformer writes them; a test decodes both and compares.
 * @module
 */
import type { Attributes, AttributeValue, Link } from '@opentelemetry/api';
import type { InstrumentationScope } from '@opentelemetry/core';
import type { Resource } from '@opentelemetry/resources';
import type { ReadableSpan, TimedEvent } from '@opentelemetry/sdk-trace-base';
import type { BatchBuilder } from './encoded-batch.js';
import { FIXED32, FIXED64, LEN, ProtoWriter, VARINT, varintSize } from './proto-writer.js';

/** The span context flags OTLP adds: whether the parent's remoteness is known, and whether it is remote. */
const HAS_IS_REMOTE = 0x100;
const IS_REMOTE = 0x200;

/**
 * Encodes ended spans into the batch being built, and seals it into one
 * `ExportTraceServiceRequest`. The spans of a batch are kept as bytes in one buffer per
 * resource and scope (a service has one of each), reused from batch to batch: no object per
 * span waits for the export.
 */
export type SpanEncoder = BatchBuilder<SealedSpans>;

/** A sealed batch: its request's bytes, and how many spans they carry. */
export type SealedSpans = { readonly bytes: Buffer; readonly count: number };

/** An encoder, and the resource and scope bytes it has made. */
export function createSpanEncoder(): SpanEncoder {
  const resources = new WeakMap<Resource, Buffer>();
  const scopes = new WeakMap<InstrumentationScope, Buffer>();
  /** The open batch's spans (`ScopeSpans.spans` fields), by resource, then scope, in the order they first came. */
  let groups = new Map<Resource, Map<InstrumentationScope, ProtoWriter>>();
  /** Writers of sealed batches, kept for the next ones (a few: one per resource and scope seen). */
  const spare: ProtoWriter[] = [];
  let count = 0;

  const once = <K extends object>(cache: WeakMap<K, Buffer>, key: K, write: (w: ProtoWriter, key: K) => void) => {
    let bytes = cache.get(key);
    if (!bytes) {
      const w = new ProtoWriter(256);
      write(w, key);
      bytes = w.copy();
      cache.set(key, bytes);
    }
    return bytes;
  };

  return {
    add(span) {
      let byScope = groups.get(span.resource);
      if (!byScope) {
        byScope = new Map();
        groups.set(span.resource, byScope);
      }
      let w = byScope.get(span.instrumentationScope);
      if (!w) {
        w = spare.pop() ?? new ProtoWriter();
        byScope.set(span.instrumentationScope, w);
      }
      const before = w.pos;
      try {
        w.tag(2, LEN); // ScopeSpans.spans
        const mark = w.begin(2);
        writeSpan(w, span);
        w.end(mark);
      } catch {
        // A span that cannot be written leaves nothing half-written in the batch (it is dropped, counted).
        w.pos = before;
        return false;
      }
      count++;
      return true;
    },
    seal() {
      // Every length is known now: size the request, then write it once.
      let total = 0;
      const plan: { head: number; resource: Buffer; scopes: { head: number; scope: Buffer; spans: ProtoWriter }[] }[] =
        [];
      for (const [resource, byScope] of groups) {
        const resourceBytes = once(resources, resource, writeResource);
        let length = resourceBytes.length;
        const parts = [];
        for (const [scope, spans] of byScope) {
          const scopeBytes = once(scopes, scope, writeScope);
          const inner = scopeBytes.length + spans.pos;
          parts.push({ head: inner, scope: scopeBytes, spans });
          length += 1 + varintSize(inner) + inner;
        }
        plan.push({ head: length, resource: resourceBytes, scopes: parts });
        total += 1 + varintSize(length) + length;
      }
      const out = new ProtoWriter(total);
      for (const { head, resource, scopes: parts } of plan) {
        out.tag(1, LEN); // ExportTraceServiceRequest.resource_spans
        out.varint(head);
        out.raw(resource);
        for (const part of parts) {
          out.tag(2, LEN); // ResourceSpans.scope_spans
          out.varint(part.head);
          out.raw(part.scope);
          part.spans.appendTo(out);
          part.spans.reset();
          if (spare.length < 8) spare.push(part.spans);
        }
      }
      groups = new Map();
      const sealed = { bytes: out.take(), count };
      count = 0;
      return sealed;
    },
  };
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
