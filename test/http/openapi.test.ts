/**
 * The OpenAPI document (SPEC A1): it validates as OpenAPI 3.1, lists every route the API
 * has, and every route it lists answers (none is the router's 404) on the real service.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { botLimits } from '../../src/bots/bot-limits.js';
import type { BotChange } from '../../src/bots/ports.js';
import { createEventBus } from '../../src/bus/create-event-bus.js';
import { createConfigWriter } from '../../src/config/config-writer.js';
import { parseConfig } from '../../src/config/parse-config.js';
import type { HubEvent } from '../../src/events/hub-event.js';
import { createGateway } from '../../src/gateway/create-gateway.js';
import { createCallTracker } from '../../src/gateway/relay/call-tracker.js';
import { createSessionRegistry } from '../../src/gateway/session/session-registry.js';
import { createApiRoutes } from '../../src/http/api/api-routes.js';
import { createHub } from '../../src/hub/create-hub.js';
import { createDb } from '../../src/storage/create-db.js';
import { openKeystore } from '../../src/storage/keystore.js';
import { TINY_SERVER, testLogger } from '../support/fixtures.js';
import { startTestService, TEST_TOKEN, type TestService } from '../support/test-service.js';
import { waitFor } from '../support/wait-for.js';

type Operation = { method: string; path: string; body: boolean };
type Document = { openapi: string; paths: Record<string, Record<string, { requestBody?: unknown }>> };

const METHODS = ['get', 'put', 'post', 'delete', 'patch'];
const tiny = { command: process.execPath, args: [TINY_SERVER] };

function operations(document: Document): Operation[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method]).map((method) => ({
      method: method.toUpperCase(),
      path,
      body: item[method]?.requestBody !== undefined,
    })),
  );
}

describe('the OpenAPI document', { timeout: 60_000 }, () => {
  let svc: TestService;
  let document: Document;
  beforeAll(async () => {
    svc = await startTestService({ mcpServers: { tiny, walk: tiny }, bots: { scout: {} } });
    await waitFor(async () => (await svc.servers()).every((s) => s.state === 'connected'), { what: 'connected' });
    document = (await svc.api<Document>('/api/openapi.json')).body;
  });
  afterAll(() => svc?.stop());

  it('validates as OpenAPI 3.1', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('lists every route of the API, and only those', async () => {
    const bus = createEventBus<HubEvent>();
    const log = testLogger();
    const hub = createHub({ log, bus, open: () => Promise.reject(new Error('none')) });
    const store = await createDb({ url: ':memory:' });
    const dir = await mkdtemp(join(tmpdir(), 'bnity-openapi-'));
    try {
      const config = () => parseConfig({ mcpServers: {} }, null);
      const gateway = createGateway({
        hub,
        bus,
        log,
        config,
        tracker: createCallTracker(),
        sessions: createSessionRegistry(),
        openUpstream: () => Promise.reject(new Error('none')),
      });
      const api = createApiRoutes({
        hub,
        config,
        bus,
        writer: createConfigWriter({ path: join(dir, 'boternity.json'), env: {}, apply: () => undefined }),
        gateway,
        db: store.db,
        pins: { approve: async () => false },
        sampling: { used: () => 0, reset: async () => undefined },
        keystore: await openKeystore({ home: dir, env: {} }),
        replica: 'r1',
        cluster: () => Promise.reject(new Error('none')),
        // Only the routes are read here: nothing is authorized.
        oauth: {
          oauth: {
            flows: {
              start: () => Promise.reject(new Error('none')),
              finish: () => Promise.reject(new Error('none')),
              wait: () => Promise.reject(new Error('none')),
              startedInUi: () => false,
              holds: () => null,
            },
            revoke: () => Promise.reject(new Error('none')),
          },
        },
        bots: {
          db: store.db,
          log,
          limits: botLimits(),
          tools: gateway.botToolCaller,
          credentials: { get: async () => null },
          changes: createEventBus<BotChange>(),
          events: { publish: () => undefined },
          secrets: new Set(),
        },
      });
      const routed = api.routes
        .filter((route) => route.method !== 'ALL')
        .map((route) => `${route.method} ${route.path}`);
      const documented = operations(document).map((op) => `${op.method} ${op.path.replace(/\{(\w+)\}/g, ':$1')}`);
      expect([...new Set(routed)].sort()).toEqual([...documented].sort());
      expect(documented).toEqual(
        expect.arrayContaining([
          'GET /api/servers',
          'POST /api/servers',
          'PATCH /api/servers/:name',
          'POST /api/servers/:name/tools/:tool/call',
          'GET /api/servers/:name/resource-templates',
          'POST /api/servers/import',
          'GET /api/presets',
          'GET /api/credentials',
          'PUT /api/credentials/:name',
          'DELETE /api/credentials/:name',
          'GET /api/config',
          'GET /api/events',
          'GET /api/openapi.json',
          'GET /api/docs',
          'GET /api/bots',
          'PUT /api/bots/:slug/overrides',
          'PATCH /api/bots/:slug/permissions/:server',
          'POST /api/bots/:slug/chat',
          'POST /api/bots/:slug/workflows/:item/run',
        ]),
      );
      await gateway.close();
    } finally {
      await hub.stop();
      await store.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('every listed route answers (no route is the router 404, none fails inside)', async () => {
    // Removals last, so that the routes after them still find their server.
    const ops = operations(document).sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'));
    const answers: string[] = [];
    for (const op of ops) {
      const url = op.path
        .replace('{name}', 'walk')
        .replace('{tool}', 'echo')
        .replace('{id}', 'no-such-token')
        .replace('{slug}', 'scout')
        .replace('{server}', 'walk')
        .replace('{item}', 'no-such-item');
      const response = await fetch(`${svc.service.url}${url}`, {
        method: op.method,
        headers: { authorization: `Bearer ${TEST_TOKEN}`, 'content-type': 'application/json' },
        ...(op.body ? { body: '{}' } : {}),
      });
      const text = response.headers.get('content-type')?.includes('event-stream') ? '' : await response.text();
      await response.body?.cancel().catch(() => undefined);
      answers.push(`${op.method} ${url} ${response.status}`);
      expect(text, `${op.method} ${url}`).not.toMatch(/"no route for /);
      // 503 (a server the walk disconnected) is an answer; 500 would be a failure of ours.
      expect(response.status, `${op.method} ${url}: ${text}`).not.toBe(500);
    }
    expect(answers.length).toBeGreaterThanOrEqual(25);
  });

  it('serves a browsable reference page from the package (no CDN); the document needs the token', async () => {
    const page = await fetch(`${svc.service.url}/api/docs`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<script src="/api/docs/swagger-ui-bundle.js"></script>');
    expect(html).not.toMatch(/https?:\/\//);
    const bundle = await fetch(`${svc.service.url}/api/docs/swagger-ui-bundle.js`);
    expect(bundle.headers.get('content-type')).toMatch(/javascript/);
    expect((await bundle.text()).length).toBeGreaterThan(100_000);
    expect((await fetch(`${svc.service.url}/api/openapi.json`)).status).toBe(401);
  });
});
