/**
 * A connect attempt that ends in `needs_authorization` (issue 23) ends its lifecycle span with
 * that outcome (traces, issue 21): no span is left open while the server waits.
 */
import { SpanStatusCode } from '@opentelemetry/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryTracing } from '../support/memory-tracing.js';
import { type OAuthPair, startOAuthPair } from '../support/oauth-servers.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { waitFor } from '../support/wait-for.js';

describe('the span of an attempt that needs authorization', () => {
  const memory = memoryTracing({ slowPingMs: 60_000 });
  let pair: OAuthPair;
  let svc: TestService;
  beforeAll(async () => {
    pair = await startOAuthPair();
    svc = await startTestService(
      { mcpServers: { linear: { type: 'http', url: pair.mcpUrl } } },
      { tracing: memory.tracing },
    );
  });
  afterAll(async () => {
    await svc?.stop();
    await pair?.close();
  });

  it('ends with outcome needs_authorization and an error status naming the way out', async () => {
    const span = await waitFor(
      () =>
        memory.spans().find((s) => s.name === 'mcp.connect_attempt' && s.attributes['mcp.server'] === 'linear') ?? null,
      { what: 'the attempt span' },
    );
    expect(span.attributes['mcp.outcome']).toBe('needs_authorization');
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    expect(span.status.message).toMatch(/needs authorization at .*bnity mcp auth linear/);
  });
});
