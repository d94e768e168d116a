/**
 * A real OTLP/HTTP trace receiver on 127.0.0.1 for tests (issue 21): `POST /v1/traces` with a
 * protobuf `ExportTraceServiceRequest`, decoded with the protobuf reader the OTLP exporter's
 * own transformer ships (its wire format; the message layout is opentelemetry-proto's
 * trace.proto, field numbers below), or the same request in OTLP's JSON encoding
 * (`content-type: application/json`, `http/json`). Keeps every span; answers 200 with an empty response.
 * @module
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ProtobufReader } from '@opentelemetry/otlp-transformer/build/src/common/protobuf/protobuf-reader.js';

/** A span as received: ids in hex, times in ns, attributes as plain values. */
export type ReceivedSpan = {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  /** 1 internal, 2 server, 3 client (the proto's SpanKind). */
  kind: number;
  startNs: bigint;
  endNs: bigint;
  attributes: Record<string, unknown>;
  events: { name: string; attributes: Record<string, unknown> }[];
  /** 0 unset, 1 ok, 2 error. */
  status: { code: number; message: string };
  /** The resource's attributes (`service.name`). */
  resource: Record<string, unknown>;
};

/** A running receiver. */
export type OtlpReceiver = {
  readonly url: string;
  readonly spans: ReceivedSpan[];
  /** The headers of each export request, in order. */
  readonly requests: Record<string, string | string[] | undefined>[];
  /** Resolves once a span matching `match` was received. */
  waitFor(match: (span: ReceivedSpan) => boolean, timeoutMs?: number): Promise<ReceivedSpan>;
  close(): Promise<void>;
};

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

/** Each field of one message: `visit(field, wireType, reader)` must read or skip it. */
function fields(bytes: Uint8Array, visit: (field: number, wireType: number, reader: ProtobufReader) => boolean): void {
  const reader = new ProtobufReader(bytes);
  while (!reader.isAtEnd()) {
    const { fieldNumber, wireType } = reader.readTag();
    if (!visit(fieldNumber, wireType, reader)) reader.skip(wireType);
  }
}

/** A fixed64 at the reader's position (the reader skips it; the value is read from the bytes). */
function fixed64(bytes: Uint8Array, reader: ProtobufReader): bigint {
  const value = new DataView(bytes.buffer, bytes.byteOffset + reader.pos, 8).getBigUint64(0, true);
  reader.skip(1);
  return value;
}

/** AnyValue: string 1, bool 2, int 3, double 4, array 5 (values 1). */
function anyValue(bytes: Uint8Array): unknown {
  let value: unknown = null;
  fields(bytes, (field, wire, reader) => {
    if (field === 1) value = reader.readString();
    else if (field === 2) value = reader.readVarint() !== 0;
    else if (field === 3) value = reader.readVarint();
    else if (field === 4 && wire === 1) {
      value = new DataView(bytes.buffer, bytes.byteOffset + reader.pos, 8).getFloat64(0, true);
      reader.skip(1);
    } else if (field === 5) {
      const items: unknown[] = [];
      fields(reader.readBytes(), (f, _w, r) => f === 1 && items.push(anyValue(r.readBytes())) > 0);
      value = items;
    } else return false;
    return true;
  });
  return value;
}

/** KeyValue: key 1, value 2. */
function keyValue(bytes: Uint8Array, into: Record<string, unknown>): void {
  let key = '';
  let value: unknown = null;
  fields(bytes, (field, _wire, reader) => {
    if (field === 1) key = reader.readString();
    else if (field === 2) value = anyValue(reader.readBytes());
    else return false;
    return true;
  });
  into[key] = value;
}

/** Every KeyValue in field `field` of a message (Resource: 1), into `into`. */
function keyValues(bytes: Uint8Array, field: number, into: Record<string, unknown>): void {
  fields(bytes, (f, _w, reader) => {
    if (f !== field) return false;
    keyValue(reader.readBytes(), into);
    return true;
  });
}

/** Span: trace_id 1, span_id 2, parent_span_id 4, name 5, kind 6, start 7, end 8, attributes 9, events 11, status 15. */
function span(bytes: Uint8Array, resource: Record<string, unknown>): ReceivedSpan {
  const out: ReceivedSpan = {
    traceId: '',
    spanId: '',
    parentSpanId: '',
    name: '',
    kind: 0,
    startNs: 0n,
    endNs: 0n,
    attributes: {},
    events: [],
    status: { code: 0, message: '' },
    resource,
  };
  fields(bytes, (field, _wire, reader) => {
    if (field === 1) out.traceId = hex(reader.readBytes());
    else if (field === 2) out.spanId = hex(reader.readBytes());
    else if (field === 4) out.parentSpanId = hex(reader.readBytes());
    else if (field === 5) out.name = reader.readString();
    else if (field === 6) out.kind = reader.readVarint();
    else if (field === 7) out.startNs = fixed64(bytes, reader);
    else if (field === 8) out.endNs = fixed64(bytes, reader);
    else if (field === 9) keyValue(reader.readBytes(), out.attributes);
    else if (field === 11) {
      // Event: time 1, name 2, attributes 3.
      const event = { name: '', attributes: {} as Record<string, unknown> };
      fields(reader.readBytes(), (f, _w, r) => {
        if (f === 2) event.name = r.readString();
        else if (f === 3) keyValue(r.readBytes(), event.attributes);
        else return false;
        return true;
      });
      out.events.push(event);
    } else if (field === 15) {
      // Status: message 2, code 3.
      fields(reader.readBytes(), (f, _w, r) => {
        if (f === 2) out.status.message = r.readString();
        else if (f === 3) out.status.code = r.readVarint();
        else return false;
        return true;
      });
    } else return false;
    return true;
  });
  return out;
}

/** ExportTraceServiceRequest: resource_spans 1 → (resource 1 → attributes 1; scope_spans 2 → spans 2). */
export function decodeTraces(body: Uint8Array): ReceivedSpan[] {
  const spans: ReceivedSpan[] = [];
  fields(body, (field, _wire, reader) => {
    if (field !== 1) return false;
    const resource: Record<string, unknown> = {};
    const scopes: Uint8Array[] = [];
    fields(reader.readBytes(), (f, _w, r) => {
      if (f === 1) keyValues(r.readBytes(), 1, resource);
      else if (f === 2) scopes.push(r.readBytes());
      else return false;
      return true;
    });
    for (const scope of scopes) fields(scope, (f, _w, r) => f === 2 && spans.push(span(r.readBytes(), resource)) > 0);
    return true;
  });
  return spans;
}

type JsonValue = {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: string | number;
  doubleValue?: number;
  arrayValue?: { values?: JsonValue[] };
};
type JsonKeyValue = { key: string; value?: JsonValue };

/** An AnyValue of OTLP/JSON (64-bit integers may come as strings). */
function jsonValue(value: JsonValue | undefined): unknown {
  if (!value) return null;
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(jsonValue);
  return null;
}

const jsonAttributes = (list: JsonKeyValue[] | undefined) =>
  Object.fromEntries((list ?? []).map((kv) => [kv.key, jsonValue(kv.value)]));

/** The same request in OTLP's JSON encoding: ids in hex, times as decimal strings. */
export function decodeJsonTraces(body: Uint8Array): ReceivedSpan[] {
  type JsonSpan = {
    traceId: string;
    spanId: string;
    parentSpanId?: string;
    name: string;
    kind: number;
    startTimeUnixNano: string | number;
    endTimeUnixNano: string | number;
    attributes?: JsonKeyValue[];
    events?: { name: string; attributes?: JsonKeyValue[] }[];
    status?: { code?: number; message?: string };
  };
  const request = JSON.parse(Buffer.from(body).toString('utf8')) as {
    resourceSpans?: { resource?: { attributes?: JsonKeyValue[] }; scopeSpans?: { spans?: JsonSpan[] }[] }[];
  };
  return (request.resourceSpans ?? []).flatMap((rs) => {
    const resource = jsonAttributes(rs.resource?.attributes);
    return (rs.scopeSpans ?? []).flatMap((scope) =>
      (scope.spans ?? []).map((s) => ({
        traceId: s.traceId,
        spanId: s.spanId,
        parentSpanId: s.parentSpanId ?? '',
        name: s.name,
        kind: s.kind,
        startNs: BigInt(s.startTimeUnixNano),
        endNs: BigInt(s.endTimeUnixNano),
        attributes: jsonAttributes(s.attributes),
        events: (s.events ?? []).map((e) => ({ name: e.name, attributes: jsonAttributes(e.attributes) })),
        status: { code: s.status?.code ?? 0, message: s.status?.message ?? '' },
        resource,
      })),
    );
  });
}

/** Start a receiver on 127.0.0.1 at a free port. */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const requests: Record<string, string | string[] | undefined>[] = [];
  const waiters = new Set<() => void>();
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.method !== 'POST' || req.url !== '/v1/traces') {
      res.writeHead(404).end();
      return;
    }
    requests.push(req.headers);
    const json = req.headers['content-type']?.startsWith('application/json');
    spans.push(...(json ? decodeJsonTraces : decodeTraces)(Buffer.concat(chunks)));
    for (const wake of waiters) wake();
    res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    requests,
    waitFor(match, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = spans.find(match);
          if (!found) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no such span received (${spans.length} spans: ${spans.map((s) => s.name).join(', ')})`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
