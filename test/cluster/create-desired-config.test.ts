/**
 * A replica's desired config (ADR 040), in-process on the run's real PostgreSQL: an edit is
 * applied here and announced, so another replica's follower applies it; a version written
 * while a replica did not listen is applied when it (re)listens; a version this replica cannot
 * use is reported and the one in force stays.
 */
import pino from 'pino';
import postgres, { type Sql } from 'postgres';
import { afterEach, describe, expect, it } from 'vitest';
import {
  CONFIG_CATCH_UP_MS,
  createDesiredConfig,
  createFleetBus,
  type DesiredConfig,
  seedDesiredConfig,
  writeConfigVersion,
} from '../../src/cluster/index.js';
import { parseConfigText } from '../../src/config/load-config.js';
import type { AppConfig } from '../../src/config/schema.js';
import type { ConfigError } from '../../src/errors.js';
import { createPostgresDatabase } from '../support/test-db.js';
import { waitFor } from '../support/wait-for.js';

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

const log = pino({ level: 'silent' });
const doc = (servers: Record<string, unknown>) => `${JSON.stringify({ mcpServers: servers }, null, 2)}\n`;
const entry = (command: string) => ({ command, args: [] });

/** A replica's desired config on `url`, seeded (or read) from `seed`; what it applied and refused. */
async function replica(url: string, id: string, seed: string, env: NodeJS.ProcessEnv = {}) {
  const sql: Sql = postgres(url, { max: 2, onnotice: () => {} });
  cleanup.push(() => sql.end({ timeout: 1 }));
  const { latest } = await seedDesiredConfig(sql, { text: seed, from: `${id}.json` });
  let inForce: AppConfig = parseConfigText(latest.document, null, env);
  const applied: AppConfig[] = [];
  const refused: ConfigError[] = [];
  const bus = createFleetBus({ sql, replica: id, log });
  const desired: DesiredConfig = createDesiredConfig({
    sql,
    bus,
    env,
    log,
    version: latest.version,
    apply: (config) => {
      inForce = config;
      applied.push(config);
    },
    reject: (error) => void refused.push(error),
    inForce: () => inForce,
  });
  cleanup.push(() => desired.close());
  return { sql, desired, applied, refused, servers: () => Object.keys(inForce.mcpServers).sort() };
}

describe('createDesiredConfig', () => {
  it("applies an edit at once on its replica and, through the bus, on the other's", async () => {
    const { url, drop } = await createPostgresDatabase();
    cleanup.push(drop);
    const a = await replica(url, 'a', doc({ one: entry('one') }));
    const b = await replica(url, 'b', doc({ ignored: entry('x') }));
    expect(b.servers()).toEqual(['one']);
    await a.desired.follow();
    await b.desired.follow();
    const edit = await a.desired.writer.edit((d) => d.addServer('two', entry('two')));
    expect(Object.keys(edit.config.mcpServers)).toEqual(['one', 'two']);
    expect(a.servers()).toEqual(['one', 'two']);
    expect(a.desired.writer.version()).toBe(2);
    await waitFor(() => b.servers().includes('two'), { what: 'b applies version 2' });
    expect(b.desired.writer.version()).toBe(2);
    expect(a.applied).toHaveLength(1);
    expect(b.applied).toHaveLength(1);
    const stale = b.desired.writer.edit((d) => d.removeServer('one'), { baseVersion: 1 });
    await expect(stale).rejects.toThrow(/^config version 1 is not the latest \(2 is\)/);
  });

  it('is seeded once when replicas start together on an empty database; the others read that version', async () => {
    const { url, drop } = await createPostgresDatabase();
    cleanup.push(drop);
    const sql: Sql = postgres(url, { max: 4, onnotice: () => {} });
    cleanup.push(() => sql.end({ timeout: 1 }));
    const starts = await Promise.all(
      ['a', 'b', 'c'].map((id) => seedDesiredConfig(sql, { text: doc({ [id]: entry(id) }), from: `${id}.json` })),
    );
    expect(starts.filter((s) => s.seeded)).toHaveLength(1);
    const winner = starts.find((s) => s.seeded)?.latest;
    for (const start of starts) expect(start.latest).toMatchObject({ version: 1, document: winner?.document });
    const [row] = await sql`select count(*)::int as n from config_versions`;
    expect(row?.n).toBe(1);
  });

  it('applies a version written while it was not listening once it listens', async () => {
    const { url, drop } = await createPostgresDatabase();
    cleanup.push(drop);
    const a = await replica(url, 'a', doc({ one: entry('one') }));
    // Written with no notice at all: only the (re)listen's read can find it.
    await writeConfigVersion({ sql: a.sql, env: {}, change: () => doc({ later: entry('l') }), writtenBy: 'x' });
    expect(a.servers()).toEqual(['one']);
    await a.desired.follow();
    await waitFor(() => a.servers().join() === 'later', { what: 'the missed version applied' });
  });

  it('applies a version whose notice was lost while it listens, within the catch-up interval (K2)', async () => {
    const { url, drop } = await createPostgresDatabase();
    cleanup.push(drop);
    const a = await replica(url, 'a', doc({ one: entry('one') }));
    await a.desired.follow();
    // Written while a listens, with no notice (a NOTIFY that failed after the write): no
    // reconnect will come to read it; only the catch-up does.
    await writeConfigVersion({ sql: a.sql, env: {}, change: () => doc({ quiet: entry('q') }), writtenBy: 'x' });
    const written = Date.now();
    await waitFor(() => a.servers().join() === 'quiet', { what: 'the unannounced version applied', timeoutMs: 5_000 });
    expect(Date.now() - written).toBeLessThan(CONFIG_CATCH_UP_MS + 1_000);
  });

  it('reports a version it cannot use and keeps the one in force; applies the next good one', async () => {
    const { url, drop } = await createPostgresDatabase();
    cleanup.push(drop);
    const a = await replica(url, 'a', doc({ one: entry('one') }), { ONLY_ON_A: 'node' });
    const b = await replica(url, 'b', doc({}));
    await b.desired.follow();
    // biome-ignore lint/suspicious/noTemplateCurlyInString: `${env:VAR}` is config syntax, not a template
    await a.desired.writer.edit((d) => d.addServer('needs-env', entry('${env:ONLY_ON_A}')));
    await waitFor(() => b.refused.length === 1, { what: 'b refuses version 2' });
    expect(b.refused[0]?.message).toMatch(/^the database config \(version 2\): .*ONLY_ON_A/s);
    expect(b.servers()).toEqual(['one']);
    await a.desired.writer.edit((d) => d.removeServer('needs-env'));
    await waitFor(() => b.desired.writer.version() === 3, { what: 'b applies version 3' });
    expect(b.applied).toHaveLength(1);
  });
});
