/**
 * Migration 0005 on a database whose pins kept full texts (issue 17, item 6): the texts are
 * cut to 2,000 characters with their length, last-seen is set, the fingerprints are kept
 * (nothing is quarantined for the upgrade), and approving a quarantine made before still works.
 */
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEventBus } from '../../src/bus/create-event-bus.js';
import { ConfigRestSchema } from '../../src/config/schema.js';
import type { HubEvent } from '../../src/events/hub-event.js';
import { changedFields } from '../../src/guard/pin-texts.js';
import { pinnedFields, toolFingerprint } from '../../src/guard/tool-fingerprint.js';
import { packageRoot } from '../../src/package-root.js';
import { createPinGuard, type PinGuardDeps } from '../../src/pins/index.js';
import { createDb, type OpenDb } from '../../src/storage/create-db.js';
import { listQuarantines } from '../../src/storage/pin-repo.js';
import { toolPinsTable } from '../../src/storage/schema.js';
import { testLogger } from '../support/fixtures.js';
import { useTempDirs } from '../support/temp-dir.js';

const schema = { type: 'object' as const, properties: { path: { type: 'string' } }, required: ['path'] };
const long = `${'r'.repeat(400 * 1024)} reads a file`;
const read: Tool = { name: 'read', description: long, inputSchema: schema };
const write: Tool = { name: 'write', description: 'Writes a file', inputSchema: schema };
const writeChanged: Tool = { ...write, description: `${'w'.repeat(300 * 1024)} and mails it away` };

/** The migrations up to `count` (the journal cut there), as an older version shipped them. */
function olderMigrations(dir: string, count: number): string {
  const source = join(packageRoot(), 'drizzle');
  mkdirSync(join(dir, 'meta'), { recursive: true });
  const journal = JSON.parse(readFileSync(join(source, 'meta', '_journal.json'), 'utf8'));
  journal.entries = journal.entries.slice(0, count);
  for (const { tag } of journal.entries) cpSync(join(source, `${tag}.sql`), join(dir, `${tag}.sql`));
  writeFileSync(join(dir, 'meta', '_journal.json'), JSON.stringify(journal));
  return dir;
}

describe('migration 0005 (bounded pins)', () => {
  const tempDir = useTempDirs('pins-migration-');
  let dir: string;
  let store: OpenDb;
  let url: string;

  beforeEach(async () => {
    dir = await tempDir();
    url = `file:${join(dir, 'boternity.db')}`;
    const old = await createDb({ url, migrationsFolder: olderMigrations(join(dir, 'drizzle'), 5) });
    const insert =
      'insert into tool_pins (server_name, tool_name, hash, status, pending_hash, fields, pending_fields) values (?, ?, ?, ?, ?, ?, ?)';
    await old.client.execute({
      sql: insert,
      args: ['fs', 'read', toolFingerprint(read), 'pinned', null, JSON.stringify(pinnedFields(read)), null],
    });
    await old.client.execute({
      sql: insert,
      args: [
        'fs',
        'write',
        toolFingerprint(write),
        'quarantined',
        toolFingerprint(writeChanged),
        JSON.stringify(pinnedFields(write)),
        JSON.stringify(pinnedFields(writeChanged)),
      ],
    });
    await old.close();
    store = await createDb({ url });
  });
  afterEach(async () => {
    await store.close();
  });

  it('cuts the full texts to 2,000 characters with their length, and sets last-seen', async () => {
    const rows = await store.db.select().from(toolPinsTable);
    const bytes = await store.client.execute(
      'select max(length(fields) + coalesce(length(pending_fields), 0)) as n from tool_pins',
    );
    expect(Number(bytes.rows[0]?.n)).toBeLessThan(10_000);
    const readRow = rows.find((r) => r.toolName === 'read');
    expect(readRow?.fields).toEqual({
      description: { text: long.slice(0, 2_000), length: long.length, sha256: null },
      title: null,
      inputSchema: { text: JSON.stringify(schema), length: JSON.stringify(schema).length, sha256: null },
      outputSchema: null,
    });
    expect(readRow?.lastSeenAt.getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(readRow?.serverRemovedAt).toBeNull();
    const [held] = await listQuarantines(store.db);
    expect(held?.pending?.description).toMatchObject({ length: writeChanged.description?.length });
    // Without hashes the review compares what was kept: still told what changed.
    expect(held?.pinned && held.pending && changedFields(held.pinned, held.pending)).toEqual(['description']);
  });

  it('keeps the fingerprints: nothing is quarantined for the upgrade, and the old quarantine can be approved', async () => {
    const bus = createEventBus<HubEvent>();
    const events: HubEvent[] = [];
    bus.subscribe(({ event }) => events.push(event));
    const tools = [read, writeChanged];
    const hub = {
      upstream: () => ({ catalog: () => ({ tools, resources: [], resourceTemplates: [], prompts: [] }) }),
    } as unknown as PinGuardDeps['hub'];
    const guard = createPinGuard({
      db: store.db,
      bus,
      log: testLogger(),
      hub,
      servers: () => ['fs'],
      settings: () => ConfigRestSchema.parse({}).pins,
    });
    await guard.start();
    try {
      expect(events.filter((e) => e.type === 'tool_quarantined')).toEqual([]);
      expect(guard.isHidden('fs', 'read')).toBe(false);
      expect(guard.isHidden('fs', 'write')).toBe(true);
      expect(await guard.approve('fs', 'write', toolFingerprint(writeChanged))).toBe(true);
      expect(guard.isHidden('fs', 'write')).toBe(false);
      const row = (await store.db.select().from(toolPinsTable)).find((r) => r.toolName === 'write');
      expect(row).toMatchObject({ status: 'approved', hash: toolFingerprint(writeChanged), pendingFields: null });
      expect(row?.fields?.description?.length).toBe(writeChanged.description?.length);
    } finally {
      await guard.stop();
    }
  });
});
