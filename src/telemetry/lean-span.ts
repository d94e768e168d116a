/**
 * A recording span, lean (issue 21, ADR 035 "Revised again"): what the SDK's `SpanImpl` keeps
 * for the export, without what it adds on every span that the service never uses — a
 * meter's end callback, a limits object per span, the attributes sanitized twice (once by the
 * tracer, once by the span), a warning `Error` built for each call on an ended span. It is
 * the SDK's `ReadableSpan` too, so the SDK's processors and exporters (the batch processor,
 * the in-memory exporter of the tests) take it as they take theirs; ours (the encoded batch,
 * the MCP duration histograms) read the same fields.
 *
 * A class, not a closure per span: two of these are made per agent request, and a class keeps
 * their methods on one prototype and their shape fixed (all fields set in the constructor).
 * @module
 */
import {
  type Attributes,
  type AttributeValue,
  type Context,
  type Exception,
  type HrTime,
  type Link,
  type Span,
  type SpanAttributes,
  type SpanContext,
  type SpanKind,
  type SpanStatus,
  SpanStatusCode,
  type TimeInput,
} from '@opentelemetry/api';
import { type InstrumentationScope, isAttributeValue, isTimeInputHrTime, millisToHrTime } from '@opentelemetry/core';
import type { Resource } from '@opentelemetry/resources';
import type { ReadableSpan, SpanProcessor, TimedEvent } from '@opentelemetry/sdk-trace-base';

/** The SDK's default limits: attributes and events per span, links per span. */
const MAX_ATTRIBUTES = 128;
const MAX_EVENTS = 128;
const MAX_LINKS = 128;

const NO_LINKS: Link[] = [];
const NO_EVENTS: TimedEvent[] = [];
const NOT_ENDED: HrTime = [0, 0];
const UNSET: SpanStatus = { code: SpanStatusCode.UNSET };

/** What every span of one tracer shares. */
export type SpanShared = {
  readonly resource: Resource;
  readonly scope: InstrumentationScope;
  /** Told of each span as it starts and as it ends, in order. */
  readonly processors: readonly SpanProcessor[];
};

/** A `performance.now()` reading as an epoch `HrTime`, in one array (the SDK's `hrTime` makes three). */
function hrTimeAt(reading: number): HrTime {
  const ms = performance.timeOrigin + reading;
  const seconds = Math.trunc(ms / 1000);
  return [seconds, Math.round((ms - seconds * 1000) * 1e6)];
}

/** A time given to `startSpan`/`end`/`addEvent` as an `HrTime`: a `performance.now()` reading, epoch ms, a Date, or an HrTime. */
function timeOf(input: TimeInput | undefined): HrTime {
  if (input === undefined) return hrTimeAt(performance.now());
  if (typeof input === 'number') return input <= performance.now() ? hrTimeAt(input) : millisToHrTime(input);
  if (input instanceof Date) return millisToHrTime(input.getTime());
  if (isTimeInputHrTime(input)) return input;
  return hrTimeAt(performance.now());
}

/** `end` − `start`, never below zero. */
function durationOf(start: HrTime, end: HrTime): HrTime {
  let seconds = end[0] - start[0];
  let nanos = end[1] - start[1];
  if (nanos < 0) {
    seconds -= 1;
    nanos += 1e9;
  }
  return seconds < 0 ? [0, 0] : [seconds, nanos];
}

/** A recording span; `end()` hands it to the processors. */
export class LeanSpan implements Span, ReadableSpan {
  readonly attributes: Attributes = {};
  // Shared empty values until a span has its own: most spans never get a link or an event.
  links: Link[] = NO_LINKS;
  events: TimedEvent[] = NO_EVENTS;
  readonly startTime: HrTime;
  endTime: HrTime = NOT_ENDED;
  duration: HrTime = NOT_ENDED;
  status: SpanStatus = UNSET;
  ended = false;
  droppedAttributesCount = 0;
  droppedEventsCount = 0;
  droppedLinksCount = 0;
  private attributeCount = 0;

  constructor(
    private readonly shared: SpanShared,
    private readonly context: SpanContext,
    public name: string,
    readonly kind: SpanKind,
    readonly parentSpanContext: SpanContext | undefined,
    parent: Context,
    attributes: SpanAttributes | undefined,
    links: readonly Link[] | undefined,
    startTime: TimeInput | undefined,
  ) {
    this.startTime = timeOf(startTime);
    if (attributes) this.setAttributes(attributes);
    if (links) for (const link of links) this.addLink(link);
    for (const processor of shared.processors) processor.onStart(this, parent);
  }

  get resource(): Resource {
    return this.shared.resource;
  }

  get instrumentationScope(): InstrumentationScope {
    return this.shared.scope;
  }

  spanContext(): SpanContext {
    return this.context;
  }

  setAttribute(key: string, value: AttributeValue | undefined): this {
    if (this.ended || value == null || key.length === 0) return this;
    // A string, number or boolean is valid as it is; only an array needs the SDK's check.
    const type = typeof value;
    if (type !== 'string' && type !== 'number' && type !== 'boolean' && !isAttributeValue(value)) return this;
    const isNew = !Object.hasOwn(this.attributes, key);
    if (isNew && this.attributeCount >= MAX_ATTRIBUTES) {
      this.droppedAttributesCount++;
      return this;
    }
    this.attributes[key] = value;
    if (isNew) this.attributeCount++;
    return this;
  }

  setAttributes(attributes: SpanAttributes): this {
    for (const key in attributes) if (Object.hasOwn(attributes, key)) this.setAttribute(key, attributes[key]);
    return this;
  }

  addEvent(name: string, attributesOrTime?: SpanAttributes | TimeInput, time?: TimeInput): this {
    if (this.ended) return this;
    let attributes: SpanAttributes | undefined;
    if (isTimeInput(attributesOrTime)) time ??= attributesOrTime;
    else attributes = attributesOrTime;
    if (this.events === NO_EVENTS) this.events = [];
    if (this.events.length >= MAX_EVENTS) {
      this.events.shift();
      this.droppedEventsCount++;
    }
    this.events.push({ name, attributes: cleanAttributes(attributes), time: timeOf(time), droppedAttributesCount: 0 });
    return this;
  }

  addLink(link: Link): this {
    if (this.ended) return this;
    if (this.links === NO_LINKS) this.links = [];
    if (this.links.length >= MAX_LINKS) {
      this.links.shift();
      this.droppedLinksCount++;
    }
    this.links.push(link.attributes ? { context: link.context, attributes: cleanAttributes(link.attributes) } : link);
    return this;
  }

  addLinks(links: Link[]): this {
    for (const link of links) this.addLink(link);
    return this;
  }

  setStatus(status: SpanStatus): this {
    // As the SDK: UNSET changes nothing, and OK is final.
    if (this.ended || status.code === SpanStatusCode.UNSET || this.status.code === SpanStatusCode.OK) return this;
    this.status =
      status.code === SpanStatusCode.ERROR && typeof status.message === 'string'
        ? { code: status.code, message: status.message }
        : { code: status.code };
    return this;
  }

  updateName(name: string): this {
    if (!this.ended) this.name = name;
    return this;
  }

  end(endTime?: TimeInput): void {
    if (this.ended) return;
    this.endTime = timeOf(endTime);
    this.duration = durationOf(this.startTime, this.endTime);
    // As the SDK: an end before the start is the start.
    if (this.duration[0] === 0 && this.duration[1] === 0) this.endTime = this.startTime;
    this.ended = true;
    for (const processor of this.shared.processors) processor.onEnd(this);
  }

  isRecording(): boolean {
    return !this.ended;
  }

  recordException(exception: Exception, time?: TimeInput): void {
    const attributes: Attributes = {};
    if (typeof exception === 'string') attributes['exception.message'] = exception;
    else if (exception) {
      const type = exception.code ?? exception.name;
      if (type !== undefined) attributes['exception.type'] = String(type);
      if (exception.message) attributes['exception.message'] = exception.message;
      if (exception.stack) attributes['exception.stacktrace'] = exception.stack;
    }
    if (attributes['exception.type'] || attributes['exception.message']) this.addEvent('exception', attributes, time);
  }
}

/** Whether `value` is a time rather than attributes (the SDK's test). */
function isTimeInput(value: unknown): value is TimeInput {
  return typeof value === 'number' || value instanceof Date || isTimeInputHrTime(value);
}

/** The valid attributes of `attributes`, copied (an event's or a link's, given by its caller). */
function cleanAttributes(attributes: SpanAttributes | undefined): Attributes {
  const clean: Attributes = {};
  if (!attributes) return clean;
  for (const key in attributes) {
    const value = attributes[key];
    if (Object.hasOwn(attributes, key) && key.length > 0 && value != null && isAttributeValue(value))
      clean[key] = value;
  }
  return clean;
}
