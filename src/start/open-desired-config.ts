/**
 * The desired config at start in cluster mode (issue 22 part 2, ADR 040), when the store is
 * PostgreSQL: the fleet bus, the config seeded from the file on an empty database or read
 * from it (one line says which), put in force as the first apply, then followed on the bus.
 * Its writer replaces the file's; no file is watched.
 * @module
 */
import type { Logger } from 'pino';
import type { Sql } from 'postgres';
import {
  createDesiredConfig,
  createFleetBus,
  DATABASE_CONFIG,
  type DesiredConfig,
  type FleetBus,
  seedDesiredConfig,
} from '../cluster/index.js';
import type { ConfigWriter } from '../config/config-writer.js';
import type { SecretStash } from '../config/import-client-config.js';
import { parseConfigTextDetailed } from '../config/load-config.js';
import type { AppConfig } from '../config/schema.js';
import type { ConfigApplier } from '../hub/apply-config-change.js';
import type { Hub } from '../hub/create-hub.js';
import type { Tracing } from '../telemetry/start-tracing.js';
import { applyFirst } from './open-tracing.js';

/** Options of {@link openDesiredConfig}. */
export type OpenDesiredConfigOptions = {
  /** This replica's id (ADR 041): the bus's sender, a version's writer. */
  replica: string;
  sql: Sql;
  env: NodeJS.ProcessEnv;
  log: Logger;
  /** The config file the replica was started with, and its text (what seeds an empty database). */
  file: { path: string; text: string };
  hub: Pick<Hub, 'applyConfig'>;
  applier: ConfigApplier;
  config: () => AppConfig;
  tracing: Tracing | null;
  keystore?: SecretStash;
};

/** What cluster mode adds to a replica: the bus, and the writer the API edits through. */
export type ClusterConfig = { bus: FleetBus; writer: ConfigWriter; close(): Promise<void> };

/** Seed or read the database's config, put it in force, follow it. */
export async function openDesiredConfig(options: OpenDesiredConfigOptions): Promise<ClusterConfig> {
  const { sql, env, log, file, applier, replica } = options;
  const bus = createFleetBus({ sql, replica, log });
  const { latest, seeded } = await seedDesiredConfig(sql, { text: file.text, from: file.path });
  if (seeded) log.info({ path: file.path }, `config: the database held none; seeded it from ${file.path} (version 1)`);
  else
    log.info(
      { path: file.path, version: latest.version, writtenBy: latest.writtenBy },
      `config: the database rules (version ${latest.version}); ${file.path} is not read (bnity config import replaces the database's)`,
    );
  const parsed = parseConfigTextDetailed(latest.document, `${DATABASE_CONFIG} (version ${latest.version})`, env);
  applyFirst(options.tracing, parsed.config, DATABASE_CONFIG, () =>
    options.hub.applyConfig(parsed.config, { file: DATABASE_CONFIG }),
  );
  applier.warn(parsed.warnings);
  const desired: DesiredConfig = createDesiredConfig({
    sql,
    bus,
    env,
    log,
    version: latest.version,
    apply: applier.apply,
    reject: applier.reject,
    inForce: options.config,
    ...(options.keystore ? { keystore: options.keystore } : {}),
  });
  try {
    await desired.follow();
  } catch (error) {
    await bus.close();
    throw error;
  }
  return {
    bus,
    writer: desired.writer,
    close: async () => {
      await desired.close();
      await bus.close();
    },
  };
}
