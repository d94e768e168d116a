/**
 * The desired config at a replica's start in cluster mode (ADR 040): an empty database is
 * seeded with the config file the replica was started with (version 1); a database that
 * holds a config already rules, and the file's content is not used.
 * @module
 */
import type { Sql } from 'postgres';
import { type ConfigVersion, insertConfigVersion, latestConfigVersion } from './config-version-repo.js';

/** The version in force at start, and whether this replica wrote it from its file. */
export type SeededConfig = { readonly latest: ConfigVersion; readonly seeded: boolean };

/** Read the latest version, or seed version 1 with `text` (read from `from`) when there is none. */
export async function seedDesiredConfig(sql: Sql, seed: { text: string; from: string }): Promise<SeededConfig> {
  const found = await latestConfigVersion(sql);
  if (found) return { latest: found, seeded: false };
  const first = { version: 1, document: seed.text, writtenBy: `seed from ${seed.from}` };
  if (await insertConfigVersion(sql, first)) return { latest: { ...first, writtenAt: Date.now() }, seeded: true };
  // Replicas started together on an empty database: the first to write version 1 seeded it.
  const winner = await latestConfigVersion(sql);
  if (!winner) throw new Error('config_versions: version 1 was taken, yet no version is there');
  return { latest: winner, seeded: false };
}
