/**
 * GET /api/audit in-process (hono's app.request) over a real in-memory database.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { auditRoutes } from '../../src/http/audit-routes.js';
import { createAuditWriter } from '../../src/storage/audit-writer.js';
import { createDb, type OpenDb } from '../../src/storage/create-db.js';

type Entries = { entries: Record<string, unknown>[] };
const at = (minute: number) => new Date(Date.UTC(2025, 0, 1, 0, minute));

describe('GET /api/audit', () => {
  let store: OpenDb;
  beforeEach(async () => {
    store = await createDb({ url: ':memory:' });
    const writer = createAuditWriter(store.db, { log: { warn: () => undefined } });
    for (let minute = 1; minute <= 5; minute += 1) {
      writer.record({
        direction: minute % 2 ? 'client' : 'server',
        eventType: 'tool_call',
        serverName: minute <= 3 ? 'fs' : 'git',
        botId: 'scout',
        clientId: 'tok',
        clientName: minute === 5 ? 'claude-code/2.1.330' : minute === 4 ? 'x'.repeat(1_000) : null,
        toolName: `t${minute}`,
        input: { minute },
        output: { ok: true },
        durationMs: minute,
        success: true,
        at: at(minute),
      });
    }
    await writer.close();
  });
  afterEach(async () => {
    await store.close();
  });

  const get = (query = '') => auditRoutes({ db: store.db }).request(`/${query}`);

  it('returns the section 7 shape, newest first', async () => {
    const response = await get();
    expect(response.status).toBe(200);
    const body = (await response.json()) as Entries;
    expect(Object.keys(body)).toEqual(['entries']);
    expect(body.entries.map((e) => e.toolName)).toEqual(['t5', 't4', 't3', 't2', 't1']);
    expect(body.entries[0]).toEqual({
      id: expect.any(String),
      timestamp: '2025-01-01T00:05:00.000Z',
      direction: 'client',
      eventType: 'tool_call',
      serverName: 'git',
      botId: 'scout',
      clientId: 'tok',
      clientName: 'claude-code/2.1.330',
      toolName: 't5',
      inputHash: expect.stringMatching(/^[0-9a-f]{64}$/),
      outputHash: expect.stringMatching(/^[0-9a-f]{64}$/),
      durationMs: 5,
      success: true,
      error: null,
      sanitized: false,
      tokenUsage: null,
      count: 1,
    });
  });

  it('applies the filters, since as ISO or epoch ms, and limit', async () => {
    const tools = async (query: string) =>
      ((await (await get(query)).json()) as Entries).entries.map((e) => e.toolName);
    expect(await tools('?server=fs&direction=server')).toEqual(['t2']);
    expect(await tools('?tool=t4&bot=scout&client=tok&event=tool_call')).toEqual(['t4']);
    expect(await tools('?since=2025-01-01T00:04:00.000Z')).toEqual(['t5', 't4']);
    expect(await tools(`?since=${at(3).getTime()}`)).toEqual(['t5', 't4', 't3']);
    expect(await tools('?since=2025-01-02')).toEqual([]);
    expect(await tools('?limit=2')).toEqual(['t5', 't4']);
    expect(await tools('?bot=nobody')).toEqual([]);
    expect(await tools('?clientName=claude-code%2F2.1.330')).toEqual(['t5']);
    // A name longer than the audit keeps is stored cut, saying how long it was.
    const long = ((await (await get('?tool=t4')).json()) as Entries).entries[0]?.clientName as string;
    expect(long).toHaveLength(256);
    expect(long.endsWith('… (1000 chars)')).toBe(true);
    expect(await tools(`?clientName=${encodeURIComponent(long)}`)).toEqual(['t4']);
  });

  it.each([
    ['?direction=sideways', 'direction'],
    ['?limit=0', 'limit'],
    ['?limit=1001', 'limit'],
    ['?limit=ten', 'limit'],
    ['?since=yesterday', 'since'],
    ['?since=2025-13-45', 'since'],
    ['?server=', 'server'],
    ['?clientName=', 'clientName'],
    [`?clientName=${'x'.repeat(257)}`, 'clientName'],
  ])('answers 400 with the error shape for %s', async (query, field) => {
    const response = await get(query);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: {
        code: 'bad_request',
        message: expect.stringMatching(new RegExp(`^invalid query: ${field}: `)),
        issues: [expect.objectContaining({ field, message: expect.any(String) })],
      },
    });
  });
});
