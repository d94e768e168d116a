/**
 * GET /api/audit in-process (hono's app.request) over a real in-memory database.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { auditRoutes } from '../../../src/http/api/audit-routes.js';
import { createAuditWriter } from '../../../src/storage/audit-writer.js';
import type { OpenDb } from '../../../src/storage/create-db.js';
import { DIALECTS, openTestDb } from '../../support/test-db.js';

type Entries = { entries: Record<string, unknown>[] };
const at = (minute: number) => new Date(Date.UTC(2025, 0, 1, 0, minute));

describe.each(DIALECTS)('GET /api/audit (%s)', (dialect) => {
  let store: OpenDb;
  beforeEach(async () => {
    store = await openTestDb(dialect);
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
    expect(Object.keys(body)).toEqual(['entries', 'nextCursor']);
    expect((body as Entries & { nextCursor: unknown }).nextCursor).toBeNull();
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
      traceId: null,
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
    ['?success=yes', 'success'],
    ['?before=yesterday', 'before'],
    ['?before=1735689600000', 'before'],
    ['?before=1735689600000.not%20an%20id', 'before'],
    ['?before=', 'before'],
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
  it("a page holds a row recorded just before it was asked for, though the writer's batch is not due", async () => {
    const writer = createAuditWriter(store.db, { log: { warn: () => undefined }, batchMs: 3_600_000 });
    try {
      writer.record({ direction: 'client', eventType: 'tool_call', toolName: 'fresh', success: true });
      const routes = auditRoutes({ db: store.db, written: () => writer.flush() });
      const body = (await (await routes.request('/?tool=fresh')).json()) as Entries;
      expect(body.entries.map((e) => e.toolName)).toEqual(['fresh']);
      expect(writer.pending()).toBe(0);
      // Without the writer's flush, the queue is not read: the row is not there yet.
      writer.record({ direction: 'client', eventType: 'tool_call', toolName: 'queued', success: true });
      expect(((await (await get('?tool=queued')).json()) as Entries).entries).toEqual([]);
    } finally {
      await writer.close();
    }
  });

  it('answers with what the database holds when writing the queue fails', async () => {
    const written = () => Promise.reject(new Error('database is locked'));
    const response = await auditRoutes({ db: store.db, written }).request('/?limit=1');
    expect(response.status).toBe(200);
    expect(((await response.json()) as Entries).entries.map((e) => e.toolName)).toEqual(['t5']);
  });
});

describe.each(DIALECTS)('GET /api/audit paging and the success filter (%s)', (dialect) => {
  let store: OpenDb;
  /** 45 rows: 15 instants with 3 rows each, so pages end between rows of one millisecond. */
  beforeEach(async () => {
    store = await openTestDb(dialect);
    const writer = createAuditWriter(store.db, { log: { warn: () => undefined } });
    for (let n = 0; n < 45; n += 1) {
      writer.record({
        direction: 'server',
        eventType: 'tool_call',
        serverName: 'fs',
        clientId: 'tok',
        toolName: `t${n}`,
        durationMs: n,
        success: n % 5 !== 0,
        ...(n % 5 === 0 ? { error: `failed ${n}` } : {}),
        at: at(Math.floor(n / 3)),
      });
    }
    await writer.close();
  });
  afterEach(async () => {
    await store.close();
  });

  type Page = { entries: { id: string; toolName: string; success: boolean }[]; nextCursor: string | null };
  const page = async (query: string): Promise<Page> => {
    const response = await auditRoutes({ db: store.db }).request(`/${query}`);
    expect(response.status).toBe(200);
    return (await response.json()) as Page;
  };
  /** Every page of `query` from the newest, following nextCursor. */
  const walk = async (query: string) => {
    const pages: Page[] = [await page(query)];
    for (let cursor = pages[0]?.nextCursor; cursor; cursor = pages.at(-1)?.nextCursor)
      pages.push(await page(`${query}&before=${encodeURIComponent(cursor)}`));
    return pages;
  };

  it('walks past the limit to the oldest row with no row twice and none missed, the last page saying none is left', async () => {
    const all = (await page('?limit=1000')).entries;
    expect(all).toHaveLength(45);
    const pages = await walk('?limit=20');
    expect(pages.map((p) => p.entries.length)).toEqual([20, 20, 5]);
    expect(pages.map((p) => p.nextCursor === null)).toEqual([false, false, true]);
    expect(pages.flatMap((p) => p.entries.map((e) => e.id))).toEqual(all.map((e) => e.id));
    expect(pages.at(-1)?.entries.at(-1)?.toolName).toBe(all.at(-1)?.toolName);
    // A page that fills up exactly has no next: no empty page to click through to.
    const exact = await walk('?limit=15');
    expect(exact.map((p) => p.entries.length)).toEqual([15, 15, 15]);
    expect(exact.at(-1)?.nextCursor).toBeNull();
  });

  it('pages within the filters, success among them', async () => {
    const failed = await walk('?success=false&limit=4');
    expect(failed.flatMap((p) => p.entries.map((e) => e.toolName))).toEqual([
      't40',
      't35',
      't30',
      't25',
      't20',
      't15',
      't10',
      't5',
      't0',
    ]);
    expect(failed.flatMap((p) => p.entries).every((e) => !e.success)).toBe(true);
    const ok = (await page('?success=true&limit=1000')).entries;
    expect(ok).toHaveLength(36);
    expect(ok.every((e) => e.success)).toBe(true);
  });

  it("a cursor of a row since pruned still starts the page right after that row's place", async () => {
    const first = await page('?limit=10');
    const last = first.entries.at(-1);
    await store.db.$client.execute({ sql: 'DELETE FROM mcp_audit WHERE id = ?', args: [last?.id ?? ''] });
    const next = await page(`?limit=10&before=${encodeURIComponent(first.nextCursor ?? '')}`);
    const all = (await page('?limit=1000')).entries.map((e) => e.id);
    expect(next.entries.map((e) => e.id)).toEqual(all.slice(9, 19));
  });
});
