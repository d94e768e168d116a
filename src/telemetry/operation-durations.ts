/**
 * The MCP semantic conventions' duration histograms (issue 21): `mcp.server.operation.duration`
 * (each agent request, its SERVER span) and `mcp.client.operation.duration` (each upstream
 * request, its CLIENT span), counted by a span processor from the spans as they end, in
 * plain buckets that `/metrics` reads at scrape time. Label sets are bounded: a flood of
 * methods or servers cannot grow them past {@link MAX_SERIES}.
 * @module
 */
import type { Context } from '@opentelemetry/api';
import type { ReadableSpan, Span, SpanProcessor } from '@opentelemetry/sdk-trace-base';

/** The conventions' advised bucket bounds, in seconds. */
export const DURATION_BUCKETS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300] as const;
/** Label sets kept per histogram at most; later ones are counted under `method="_OTHER"`. */
export const MAX_SERIES = 500;

/** One series of a histogram: its labels, the count per bucket (not cumulative), sum and count. */
export type DurationSeries = {
  readonly labels: Readonly<Record<string, string>>;
  readonly buckets: number[];
  sum: number;
  count: number;
};

/** The two histograms, by the kind of span they come from. */
export type OperationDurations = {
  readonly server: ReadonlyMap<string, DurationSeries>;
  readonly client: ReadonlyMap<string, DurationSeries>;
};

const SERVER = 1;
const CLIENT = 2;

/** A processor that counts each ended SERVER and CLIENT span carrying `mcp.method.name`, and what it counted. */
export function countOperationDurations(): { processor: SpanProcessor; durations: OperationDurations } {
  const server = new Map<string, DurationSeries>();
  const client = new Map<string, DurationSeries>();
  // Keyed by the label values joined (no JSON per span: this runs for every request); the
  // labels object is made once, for a new series.
  const observe = (
    into: Map<string, DurationSeries>,
    method: string,
    failure: string | undefined,
    owner: string | undefined,
    seconds: number,
  ) => {
    let key = `${method}\n${failure ?? ''}\n${owner ?? ''}`;
    let series = into.get(key);
    if (!series) {
      let labels: Record<string, string> = { method };
      if (failure !== undefined) labels.error_type = failure;
      if (owner !== undefined) labels.server = owner;
      if (into.size >= MAX_SERIES) {
        labels = { method: '_OTHER' };
        key = '_OTHER\n\n';
        series = into.get(key);
      }
      if (!series) {
        series = { labels, buckets: new Array(DURATION_BUCKETS.length + 1).fill(0), sum: 0, count: 0 };
        into.set(key, series);
      }
    }
    let bucket = 0;
    while (bucket < DURATION_BUCKETS.length && seconds > (DURATION_BUCKETS[bucket] as number)) bucket++;
    series.buckets[bucket] = (series.buckets[bucket] ?? 0) + 1;
    series.sum += seconds;
    series.count += 1;
  };
  const processor: SpanProcessor = {
    onStart(_span: Span, _parent: Context) {},
    onEnd(span: ReadableSpan) {
      if (span.kind !== SERVER && span.kind !== CLIENT) return;
      const method = span.attributes['mcp.method.name'];
      if (typeof method !== 'string') return;
      const seconds = span.duration[0] + span.duration[1] / 1e9;
      const failure = span.attributes['error.type'];
      const owner = span.kind === CLIENT ? span.attributes['boternity.server'] : undefined;
      observe(
        span.kind === SERVER ? server : client,
        method,
        typeof failure === 'string' ? failure : undefined,
        typeof owner === 'string' ? owner : undefined,
        seconds,
      );
    },
    forceFlush: () => Promise.resolve(),
    shutdown: () => Promise.resolve(),
  };
  return { processor, durations: { server, client } };
}
