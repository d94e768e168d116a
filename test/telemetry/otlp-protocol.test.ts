/**
 * The OTLP encoding chosen by `OTEL_EXPORTER_OTLP_(TRACES_)PROTOCOL` (issue 21), sent to a
 * real receiver on 127.0.0.1: `http/json` exports JSON, `http/protobuf` protobuf, and `grpc`
 * (not supported) keeps tracing on with protobuf after one warning line.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/parse-config.js';
import { tracingSettings } from '../../src/telemetry/index.js';
import { startTracing } from '../../src/telemetry/start-tracing.js';
import { captureLog, LEVEL } from '../support/capture-log.js';
import { type OtlpReceiver, startOtlpReceiver } from '../support/otlp-receiver.js';

describe('the OTLP protocol', () => {
  let receiver: OtlpReceiver;
  beforeAll(async () => {
    receiver = await startOtlpReceiver();
  });
  afterAll(() => receiver?.close());

  /** Start tracing with `env`, send one span named `name`, and stop (which exports it). */
  const sendOne = async (name: string, env: NodeJS.ProcessEnv) => {
    const captured = captureLog('info');
    const telemetry = parseConfig({ telemetry: { enabled: true, endpoint: receiver.url } }, null).telemetry;
    const settings = tracingSettings(telemetry, env);
    if (!settings) throw new Error('tracing should be on');
    const tracing = startTracing(settings, { log: captured.log });
    tracing.tracer.startSpan(name, { attributes: { 'mcp.attempt': 2 } }).end();
    await tracing.shutdown();
    const span = await receiver.waitFor((s) => s.name === name);
    // One export a run, its one span: the last request is the one that carried it.
    return { span, headers: receiver.requests.at(-1), captured };
  };

  it('sends OTLP/JSON when OTEL_EXPORTER_OTLP_TRACES_PROTOCOL is http/json', async () => {
    const { span, headers, captured } = await sendOne('json-span', {
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
    });
    expect(headers?.['content-type']).toMatch(/^application\/json/);
    expect(span.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(span.attributes['mcp.attempt']).toBe(2);
    expect(captured.lines.find((l) => l.msg === 'tracing on')).toMatchObject({ protocol: 'http/json' });
  });

  it('sends protobuf by default', async () => {
    const { headers } = await sendOne('proto-span', {});
    expect(headers?.['content-type']).toBe('application/x-protobuf');
  });

  it('stays on with protobuf after one clear warning when grpc is asked for', async () => {
    const { headers, captured } = await sendOne('grpc-span', { OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' });
    expect(headers?.['content-type']).toBe('application/x-protobuf');
    const warnings = captured.lines.filter((l) => l.level === LEVEL.warn);
    expect(warnings.map((l) => l.msg)).toEqual([
      'OTEL_EXPORTER_OTLP_PROTOCOL=grpc is not supported (only http/protobuf and http/json): traces are sent as http/protobuf',
    ]);
  });
});
