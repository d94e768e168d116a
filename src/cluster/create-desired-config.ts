/**
 * The desired config of a running replica in cluster mode (ADR 040): its writer, whose
 * every edit is a new version in the database (`writeConfigVersion`), applied here at once
 * and announced on the fleet bus; and the follower of the `config` topic, which puts the
 * latest version in force through the same applier a file change goes through. Edits and
 * applies run one at a time in one queue, so a replica never applies an older version after
 * a newer one. A version this replica cannot use (a `${env:…}` it lacks) is reported as a
 * refused file is (`config_error`), and the one in force stays.
 * @module
 */
import type { Logger } from 'pino';
import type { Sql } from 'postgres';
import type { PathIssue } from '../config/config-issues.js';
import type { ConfigWriter, WriterEditOptions } from '../config/config-writer.js';
import type { ConfigDocument } from '../config/edit-config.js';
import { createEditQueue } from '../config/edit-queue.js';
import { importServers, type SecretStash } from '../config/import-client-config.js';
import { parseConfigTextDetailed } from '../config/load-config.js';
import { openConfigDocument } from '../config/open-config-document.js';
import type { AppConfig } from '../config/schema.js';
import { ConfigError } from '../errors.js';
import { latestConfigVersion, latestConfigVersionNumber } from './config-version-repo.js';
import type { FleetBus } from './fleet-bus.js';
import { DATABASE_CONFIG, writeConfigVersion } from './write-config-version.js';

/** The topic a new version is announced on; its payload is `{ version }`. */
export const CONFIG_TOPIC = 'config';

/** Options of {@link createDesiredConfig}. */
export type DesiredConfigDeps = {
  sql: Sql;
  bus: FleetBus;
  env: NodeJS.ProcessEnv;
  log: Logger;
  /** The version put in force at start. */
  version: number;
  /** How often the latest version's number is checked without a notice (default `CONFIG_CATCH_UP_MS`). */
  catchUpMs?: number;
  /** Puts a config in force: the applier a file change goes through. */
  apply(config: AppConfig, warnings: readonly PathIssue[]): void;
  /** Reports a version this replica cannot use (the one in force stays). */
  reject(error: ConfigError): void;
  /** The config in force. */
  inForce: () => AppConfig;
  /** Where imported secrets go (the home's keystore). */
  keystore?: SecretStash;
};

/** A replica's desired config: the writer the API edits through, and the follower of new versions. */
export type DesiredConfig = {
  readonly writer: ConfigWriter;
  /** Listen for new versions; resolves once listening (and the latest is in force). */
  follow(): Promise<void>;
  /** Stop following. */
  close(): Promise<void>;
};

/**
 * How often a replica checks the latest version's number without a notice (K2): a notice
 * lost (its NOTIFY failed after the version was written, a listening connection dropped
 * without a word) delays an edit by this much at most, not until the next edit.
 */
export const CONFIG_CATCH_UP_MS = 2_000;

/** The desired config of one replica, with `version` in force. */
export function createDesiredConfig(deps: DesiredConfigDeps): DesiredConfig {
  const { sql, bus, env, log } = deps;
  const queue = createEditQueue();
  let applied = deps.version;
  let stop: (() => Promise<void>) | null = null;
  let refreshing = false;
  let catchUp: NodeJS.Timeout | undefined;

  /** Put the latest version in force if it is newer than the one in force. */
  const refresh = async () => {
    const latest = await latestConfigVersion(sql);
    if (!latest || latest.version <= applied) return;
    applied = latest.version;
    try {
      const parsed = parseConfigTextDetailed(latest.document, `${DATABASE_CONFIG} (version ${latest.version})`, env);
      deps.apply(parsed.config, parsed.warnings);
      log.info({ version: latest.version, writtenBy: latest.writtenBy }, 'config version applied');
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      deps.reject(error);
    }
  };
  // Notices coming in a burst read the latest once: one waits in the queue, the others find it there.
  const scheduleRefresh = () => {
    if (refreshing) return;
    refreshing = true;
    void queue
      .run(async () => {
        refreshing = false;
        await refresh();
      })
      .catch((error: unknown) => log.warn({ err: error }, 'config: the latest version could not be read'));
  };

  const edit = (
    change: (doc: ConfigDocument) => void,
    options: WriterEditOptions = {},
    beforeWrite?: () => Promise<void> | void,
  ) =>
    queue.run(async () => {
      const written = await writeConfigVersion({
        sql,
        env,
        writtenBy: `api on ${bus.replica}`,
        baseVersion: options.baseVersion,
        inForce: deps.inForce(),
        ...(beforeWrite ? { beforeWrite } : {}),
        change: (base) => {
          const doc = openConfigDocument(base);
          change(doc);
          return doc.text();
        },
      });
      if (!written.changed) return written;
      applied = written.version;
      deps.apply(written.config, written.warnings);
      // The version is written: a lost notice delays the others until their next one or reconnect.
      await bus
        .publish(CONFIG_TOPIC, { version: written.version })
        .catch((error: unknown) => log.warn({ err: error }, 'config: a new version was not announced'));
      return written;
    });

  const writer: ConfigWriter = {
    path: null,
    queue,
    edit: (change, options) => edit(change, options),
    version: () => applied,
    importServers: (servers, { force, keepSecretsInline = false }) =>
      importServers(DATABASE_CONFIG, servers, {
        env,
        force,
        keepSecretsInline,
        keystore: deps.keystore ?? null,
        editWith: (change, options) => edit(change, {}, options.beforeWrite),
      }),
  };

  return {
    writer,
    async follow() {
      stop ??= await bus.subscribe(CONFIG_TOPIC, scheduleRefresh, { onReady: scheduleRefresh });
      // A notice lost is made up for: a newer number than the one in force reads it (one index read a beat).
      catchUp ??= setInterval(() => {
        void latestConfigVersionNumber(sql).then(
          (latest) => latest > applied && scheduleRefresh(),
          () => undefined,
        );
      }, deps.catchUpMs ?? CONFIG_CATCH_UP_MS);
      catchUp.unref();
    },
    async close() {
      clearInterval(catchUp);
      catchUp = undefined;
      await stop?.();
      stop = null;
    },
  };
}
