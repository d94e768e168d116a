/**
 * Tracing settings (issue 21): off by default, on by the config, `OTEL_TRACES_EXPORTER=otlp` or
 * (the config silent) the standard endpoint, service name or sampler variables (SPEC §7), off by
 * `OTEL_SDK_DISABLED`; every `OTEL_*` variable wins over the `telemetry` section.
 */
import { describe, expect, it } from 'vitest';
import { parseConfig, parseConfigDetailed } from '../../src/config/parse-config.js';
import { tracingSettings } from '../../src/telemetry/index.js';

const telemetry = (section: Record<string, unknown> = {}) => parseConfig({ telemetry: section }, null).telemetry;

describe('tracingSettings', () => {
  it('is off by default, with no environment', () => {
    expect(tracingSettings(telemetry(), {})).toBeNull();
  });

  it('sends to localhost:4318 with parent-based sampling of every trace when only enabled', () => {
    expect(tracingSettings(telemetry({ enabled: true }), {})).toEqual({
      url: 'http://localhost:4318/v1/traces',
      protocol: 'http/protobuf',
      protocolWarning: null,
      headers: {},
      serviceName: 'boternity',
      sampler: { parent: true, ratio: 1 },
      maxQueueSize: 2048,
      maxExportBatchSize: 512,
      scheduledDelayMs: 5000,
      exportTimeoutMs: 10000,
      slowPingMs: 1000,
    });
  });

  it('takes the config section when the environment says nothing', () => {
    const settings = tracingSettings(
      telemetry({
        enabled: true,
        endpoint: 'https://otel.example:4318/',
        headers: { 'x-api-key': 'k' },
        serviceName: 'gw-1',
        sampleRatio: 0.25,
      }),
      {},
    );
    expect(settings).toMatchObject({
      url: 'https://otel.example:4318/v1/traces',
      headers: { 'x-api-key': 'k' },
      serviceName: 'gw-1',
      sampler: { parent: true, ratio: 0.25 },
    });
  });

  it('lets every OTEL_* variable win over the section', () => {
    const settings = tracingSettings(
      telemetry({ enabled: true, endpoint: 'http://config:4318', serviceName: 'from-config', headers: { a: '1' } }),
      {
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://env:4318',
        OTEL_EXPORTER_OTLP_HEADERS: 'a=2,b=x%20y',
        OTEL_SERVICE_NAME: 'from-env',
        OTEL_TRACES_SAMPLER: 'traceidratio',
        OTEL_TRACES_SAMPLER_ARG: '0.5',
        OTEL_BSP_MAX_QUEUE_SIZE: '100',
        OTEL_EXPORTER_OTLP_TIMEOUT: '2000',
      },
    );
    expect(settings).toMatchObject({
      url: 'http://env:4318/v1/traces',
      headers: { a: '2', b: 'x y' },
      serviceName: 'from-env',
      sampler: { parent: false, ratio: 0.5 },
      maxQueueSize: 100,
      exportTimeoutMs: 2000,
    });
    // The signal's own endpoint is taken as it is.
    expect(
      tracingSettings(telemetry({ enabled: true }), { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://t:1/custom' })?.url,
    ).toBe('http://t:1/custom');
  });

  it('is turned on by OTEL_TRACES_EXPORTER=otlp and off by OTEL_SDK_DISABLED or OTEL_TRACES_EXPORTER=none', () => {
    expect(tracingSettings(telemetry(), { OTEL_TRACES_EXPORTER: 'otlp' })).not.toBeNull();
    expect(tracingSettings(telemetry({ enabled: true }), { OTEL_SDK_DISABLED: 'true' })).toBeNull();
    expect(tracingSettings(telemetry({ enabled: true }), { OTEL_TRACES_EXPORTER: 'none' })).toBeNull();
  });

  it('is turned on by the standard endpoint, service name or sampler variables when the config does not say', () => {
    for (const name of [
      'OTEL_EXPORTER_OTLP_ENDPOINT',
      'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
      'OTEL_SERVICE_NAME',
      'OTEL_TRACES_SAMPLER',
    ]) {
      const value =
        name === 'OTEL_TRACES_SAMPLER' ? 'always_on' : name.endsWith('ENDPOINT') ? 'http://127.0.0.1:4318' : 'x';
      expect(tracingSettings(telemetry(), { [name]: value }), name).not.toBeNull();
      // Written `false` in the file keeps it off; only OTEL_TRACES_EXPORTER=otlp overrides that.
      expect(tracingSettings(telemetry({ enabled: false }), { [name]: value }), name).toBeNull();
      expect(tracingSettings(telemetry(), { [name]: value, OTEL_SDK_DISABLED: 'true' }), name).toBeNull();
      expect(tracingSettings(telemetry(), { [name]: value, OTEL_TRACES_EXPORTER: 'none' }), name).toBeNull();
    }
    expect(tracingSettings(telemetry(), { OTEL_EXPORTER_OTLP_ENDPOINT: '  ' })).toBeNull();
    expect(tracingSettings(telemetry({ enabled: false }), { OTEL_TRACES_EXPORTER: 'otlp' })).not.toBeNull();
    expect(tracingSettings(telemetry(), { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9/' })?.url).toBe(
      'http://127.0.0.1:9/v1/traces',
    );
  });

  it('maps the standard samplers, and ignores an argument out of range', () => {
    const sampler = (name: string, arg?: string) =>
      tracingSettings(telemetry({ enabled: true }), {
        OTEL_TRACES_SAMPLER: name,
        ...(arg ? { OTEL_TRACES_SAMPLER_ARG: arg } : {}),
      })?.sampler;
    expect(sampler('always_on')).toEqual({ parent: false, ratio: 1 });
    expect(sampler('always_off')).toEqual({ parent: false, ratio: 0 });
    expect(sampler('parentbased_always_off')).toEqual({ parent: true, ratio: 0 });
    expect(sampler('parentbased_traceidratio', '0.1')).toEqual({ parent: true, ratio: 0.1 });
    expect(sampler('parentbased_traceidratio', '7')).toEqual({ parent: true, ratio: 1 });
  });

  it('takes the OTLP protocol from OTEL_EXPORTER_OTLP_TRACES_PROTOCOL, then OTEL_EXPORTER_OTLP_PROTOCOL, then the config', () => {
    const on = (section: Record<string, unknown>, env: NodeJS.ProcessEnv) =>
      tracingSettings(telemetry({ enabled: true, ...section }), env);
    expect(on({ protocol: 'http/json' }, {})).toMatchObject({ protocol: 'http/json', protocolWarning: null });
    expect(on({ protocol: 'http/json' }, { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf' })?.protocol).toBe(
      'http/protobuf',
    );
    expect(
      on({}, { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: ' HTTP/JSON ' })
        ?.protocol,
    ).toBe('http/json');
  });

  it('stays on with http/protobuf and one warning line for grpc or an unknown protocol', () => {
    const grpc = tracingSettings(telemetry({ enabled: true }), { OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' });
    expect(grpc?.protocol).toBe('http/protobuf');
    expect(grpc?.protocolWarning).toBe(
      'OTEL_EXPORTER_OTLP_PROTOCOL=grpc is not supported (only http/protobuf and http/json): traces are sent as http/protobuf',
    );
    const typo = tracingSettings(telemetry({ enabled: true }), { OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/proto' });
    expect(typo?.protocolWarning).toMatch(/^OTEL_EXPORTER_OTLP_TRACES_PROTOCOL=http\/proto is not supported/);
    expect(typo?.protocolWarning).not.toContain('\n');
  });

  it('refuses a bad section with a one-line error naming the field', () => {
    expect(() => telemetry({ enabled: true, endpoint: 'ftp://x' })).toThrow(/telemetry\.endpoint.*http/);
    expect(() => telemetry({ sampleRatio: 2 })).toThrow(/telemetry\.sampleRatio/);
    // A key it does not know is kept and reported (SPEC C1); a near miss is refused naming the key meant.
    expect(parseConfigDetailed({ telemetry: { exporter: 'zipkin' } }, null).warnings).toEqual([
      { path: ['telemetry', 'exporter'], message: 'unknown key, kept but not used' },
    ]);
    expect(() => telemetry({ endpiont: 'http://x' })).toThrow(
      /telemetry\.endpiont: unknown key; did you mean "endpoint"\?/,
    );
    expect(() => telemetry({ protocol: 'grpc' })).toThrow(/telemetry\.protocol/);
  });
});
