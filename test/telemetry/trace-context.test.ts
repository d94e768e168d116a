/**
 * W3C trace context in `params._meta` and HTTP headers (issue 21, SEP-414): parsed strictly,
 * `_meta` before the header, and written back with the rest of `_meta` kept.
 */
import { propagation, trace } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { extractTraceContext, parseTraceparent, withTraceFields } from '../../src/telemetry/index.js';

const T = '4bf92f3577b34da6a3ce929d0e0e4736';
const S = '00f067aa0ba902b7';

describe('trace context', () => {
  it('parses a traceparent and refuses malformed ones', () => {
    expect(parseTraceparent(`00-${T}-${S}-01`, 'vendor=x')).toMatchObject({
      traceId: T,
      spanId: S,
      traceFlags: 1,
      isRemote: true,
    });
    for (const bad of [
      `00-${'0'.repeat(32)}-${S}-01`,
      `00-${T}-${'0'.repeat(16)}-01`,
      `ff-${T}-${S}-01`,
      `00-${T}-${S}-01-extra`,
      `00-${T.toUpperCase()}-${S}-01`,
      'garbage',
      42,
      undefined,
    ])
      expect(parseTraceparent(bad)).toBeNull();
  });

  it('takes _meta before the HTTP header, and the header when _meta has none', () => {
    const other = 'a'.repeat(32);
    const fromMeta = extractTraceContext({ traceparent: `00-${T}-${S}-01` }, { traceparent: `00-${other}-${S}-01` });
    expect(trace.getSpanContext(fromMeta)?.traceId).toBe(T);
    const fromHeader = extractTraceContext({ progressToken: 1 }, { traceparent: `00-${other}-${S}-00` });
    expect(trace.getSpanContext(fromHeader)).toMatchObject({ traceId: other, traceFlags: 0 });
    expect(trace.getSpanContext(extractTraceContext(undefined, {}))).toBeUndefined();
  });

  it('replaces trace fields in _meta and keeps the rest', () => {
    const parent = extractTraceContext({ traceparent: `00-${T}-${S}-01`, baggage: 'k=v%201' });
    expect(propagation.getBaggage(parent)?.getEntry('k')?.value).toBe('v 1');
    const child = { traceId: T, spanId: 'b7ad6b7169203331', traceFlags: 1 };
    expect(withTraceFields({ progressToken: 7, traceparent: 'old', tracestate: 'old=1' }, child, parent)).toEqual({
      progressToken: 7,
      traceparent: `00-${T}-b7ad6b7169203331-01`,
      baggage: 'k=v%201',
    });
  });
});
