/**
 * The config writer of a command run with no service (SPEC A4): in cluster mode (ADR 040)
 * the database's config versions, whose edits every running replica applies; otherwise the
 * config file, read at the next start.
 * @module
 */
import type { ConfigWriter } from '../config/config-writer.js';
import type { SecretStash } from '../config/import-client-config.js';
import type { AppConfig } from '../config/schema.js';
import type { OpenDb } from '../storage/create-db.js';

/** A writer and the config it keeps up to date with its own edits. */
export type OfflineConfig = { writer: ConfigWriter; config: () => AppConfig };

/** The writer over `store`'s config versions when it is PostgreSQL, else over the file `fileConfig` was read from. */
export async function offlineConfigWriter(
  store: OpenDb,
  file: { path: string; config: AppConfig },
  env: NodeJS.ProcessEnv,
  /** Where an import's secrets go (the home's keystore). */
  keystore?: SecretStash,
): Promise<OfflineConfig> {
  let current = file.config;
  const apply = (next: AppConfig) => {
    current = next;
  };
  const sql = store.postgres;
  if (!sql) {
    const { createConfigWriter } = await import('../config/config-writer.js');
    const writer = createConfigWriter({ path: file.path, env, apply, ...(keystore ? { keystore } : {}) });
    return { writer, config: () => current };
  }
  const [cluster, { parseConfigText }, { pino }] = await Promise.all([
    import('../cluster/index.js'),
    import('../config/load-config.js'),
    import('pino'),
  ]);
  const latest = await cluster.latestConfigVersion(sql);
  if (latest) current = parseConfigText(latest.document, cluster.DATABASE_CONFIG, env);
  const log = pino({ level: 'silent' });
  const desired = cluster.createDesiredConfig({
    sql,
    bus: cluster.createFleetBus({ sql, replica: `cli-${cluster.processId(env)}`, log }),
    env,
    log,
    version: latest?.version ?? 0,
    apply,
    // Nothing is followed: only this command's own edits are applied here.
    reject: () => undefined,
    inForce: () => current,
    ...(keystore ? { keystore } : {}),
  });
  return { writer: desired.writer, config: () => current };
}
