/**
 * The desired config's versions in the database (ADR 040, table `config_versions`): the
 * latest, and a new one written only if its number is still free. The number is the primary
 * key, so of two writers that read version N, one writes N+1 and the other learns it lost.
 * @module
 */
import type { Sql } from 'postgres';

/** One stored version: its number, the config's text, who wrote it and when (epoch ms). */
export type ConfigVersion = {
  readonly version: number;
  readonly document: string;
  readonly writtenBy: string;
  readonly writtenAt: number;
};

/** The newest version, or null when the database holds no config yet. */
export async function latestConfigVersion(sql: Sql): Promise<ConfigVersion | null> {
  const [row] = await sql<ConfigVersion[]>`select version, document, written_by as "writtenBy",
    written_at as "writtenAt" from config_versions order by version desc limit 1`;
  return row ?? null;
}

/** The number of the latest version, or 0 when none is written: one index read. */
export async function latestConfigVersionNumber(sql: Sql): Promise<number> {
  const [row] = await sql<{ version: number | null }[]>`select max(version) as version from config_versions`;
  return Number(row?.version ?? 0);
}

/**
 * Versions kept: each holds the whole document, and an edit adds one, so the oldest go as
 * new ones come (only the latest is ever read; the few before it show what changed).
 */
export const CONFIG_VERSIONS_KEPT = 100;

/**
 * Write `next` unless its number is taken; false: another writer took it first (nothing
 * written). Versions more than {@link CONFIG_VERSIONS_KEPT} behind it are deleted with it.
 */
export async function insertConfigVersion(
  sql: Sql,
  next: { version: number; document: string; writtenBy: string },
): Promise<boolean> {
  const rows = await sql`insert into config_versions (version, document, written_by, written_at)
    values (${next.version}, ${next.document}, ${next.writtenBy}, ${Date.now()})
    on conflict (version) do nothing returning version`;
  if (rows.length !== 1) return false;
  await sql`delete from config_versions where version <= ${next.version - CONFIG_VERSIONS_KEPT}`;
  return true;
}
