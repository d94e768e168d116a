/**
 * A config edit in cluster mode (ADR 040) on the run's real PostgreSQL: the next version is
 * written with a compare-and-set on its number; a stale base version, an invalid text, a text
 * naming no servers while some run, and a database that keeps changing are each refused in
 * one line with nothing written.
 */
import postgres, { type Sql } from 'postgres';
import { afterEach, describe, expect, it } from 'vitest';
import { latestConfigVersion, writeConfigVersion } from '../../src/cluster/index.js';
import { ConfigError, HubError } from '../../src/errors.js';
import { createPostgresDatabase } from '../support/test-db.js';

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function database(): Promise<Sql> {
  const made = await createPostgresDatabase();
  cleanup.push(made.drop);
  const sql = postgres(made.url, { max: 4, onnotice: () => {} });
  cleanup.push(() => sql.end());
  return sql;
}

const doc = (servers: Record<string, unknown>) => `${JSON.stringify({ mcpServers: servers }, null, 2)}\n`;
const entry = { command: 'node', args: ['x.js'] };
const count = async (sql: Sql) => (await sql`select count(*)::int as n from config_versions`)[0]?.n;

describe('writeConfigVersion', () => {
  it('writes version 1, then each edit as the next version, and nothing for an edit that changes nothing', async () => {
    const sql = await database();
    const first = await writeConfigVersion({ sql, env: {}, change: () => doc({ one: entry }), writtenBy: 't' });
    expect(first).toMatchObject({ version: 1, changed: true });
    expect(Object.keys(first.config.mcpServers)).toEqual(['one']);
    const same = await writeConfigVersion({ sql, env: {}, change: (base) => base, writtenBy: 't' });
    expect(same).toMatchObject({ version: 1, changed: false });
    const second = await writeConfigVersion({
      sql,
      env: {},
      change: () => doc({ one: entry, two: entry }),
      writtenBy: 'u',
    });
    expect(second.version).toBe(2);
    expect(await latestConfigVersion(sql)).toMatchObject({ version: 2, writtenBy: 'u', document: second.text });
  });

  it('keeps the last 100 versions: each holds the whole document, so the oldest go as edits come', async () => {
    const sql = await database();
    for (let i = 1; i <= 103; i++)
      await writeConfigVersion({ sql, env: {}, change: () => doc({ [`s${i}`]: entry }), writtenBy: 't' });
    expect(await count(sql)).toBe(100);
    const [range] = await sql`select min(version)::int as low, max(version)::int as high from config_versions`;
    expect(range).toEqual({ low: 4, high: 103 });
    expect(await latestConfigVersion(sql)).toMatchObject({ version: 103 });
  });

  it('refuses an edit made on a version that is no longer the latest, writing nothing', async () => {
    const sql = await database();
    await writeConfigVersion({ sql, env: {}, change: () => doc({ one: entry }), writtenBy: 't' });
    await writeConfigVersion({ sql, env: {}, change: () => doc({ two: entry }), writtenBy: 't' });
    const stale = writeConfigVersion({ sql, env: {}, change: () => doc({}), writtenBy: 't', baseVersion: 1 });
    await expect(stale).rejects.toThrow(
      new HubError(
        'conflict',
        'config version 1 is not the latest (2 is): another edit came first; nothing was written; read the config again and retry',
      ),
    );
    expect(await count(sql)).toBe(2);
  });

  it('of two edits made on the same version at once, writes one and refuses the other', async () => {
    const sql = await database();
    await writeConfigVersion({ sql, env: {}, change: () => doc({ one: entry }), writtenBy: 't' });
    const results = await Promise.allSettled(
      ['a', 'b'].map((name) =>
        writeConfigVersion({ sql, env: {}, change: () => doc({ [name]: entry }), writtenBy: name, baseVersion: 1 }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = results.find((r) => r.status === 'rejected');
    expect((refused as PromiseRejectedResult).reason).toBeInstanceOf(HubError);
    expect(await count(sql)).toBe(2);
  });

  it('makes an edit again on the newer text when another writer came first, and gives up after its tries', async () => {
    const sql = await database();
    await writeConfigVersion({ sql, env: {}, change: () => doc({ one: entry }), writtenBy: 't' });
    let raced = 0;
    const rival = () =>
      sql`insert into config_versions (version, document, written_by, written_at)
        select max(version) + 1, ${doc({ one: entry, [`r${++raced}`]: entry })}, 'rival', 0 from config_versions`;
    const kept = await writeConfigVersion({
      sql,
      env: {},
      writtenBy: 'edit',
      // Adds "mine" to whatever is latest: made again on the rival's text, both are kept.
      change: (base) => doc({ ...(JSON.parse(base) as { mcpServers: object }).mcpServers, mine: entry }),
      beforeWrite: async () => {
        if (raced === 0) await rival();
      },
    });
    expect(kept.version).toBe(3);
    expect(Object.keys(kept.config.mcpServers).sort()).toEqual(['mine', 'one', 'r1']);
    const lost = writeConfigVersion({
      sql,
      env: {},
      writtenBy: 'edit',
      attempts: 2,
      change: () => doc({ one: entry }),
      beforeWrite: async () => void (await rival()),
    });
    await expect(lost).rejects.toThrow(
      'the database config kept changing while it was being edited (2 tries): nothing was written; try again',
    );
    expect((await latestConfigVersion(sql))?.writtenBy).toBe('rival');
  });

  it('refuses an invalid text, and one naming no servers while some run, writing nothing', async () => {
    const sql = await database();
    await writeConfigVersion({ sql, env: {}, change: () => doc({ one: entry }), writtenBy: 't' });
    const invalid = writeConfigVersion({ sql, env: {}, change: () => doc({ bad: { args: [] } }), writtenBy: 't' });
    await expect(invalid).rejects.toBeInstanceOf(ConfigError);
    await expect(invalid).rejects.toThrow(/^the database config: invalid config\n.*bad/s);
    const noServers = writeConfigVersion({ sql, env: {}, change: () => '{"limits": {}}', writtenBy: 't' });
    await expect(noServers).rejects.toThrow(
      /^the database config: names no servers \(no "mcpServers" key\) and would stop all 1 running/,
    );
    expect(await count(sql)).toBe(1);
  });
});
