/**
 * The service's writer of its config file (SPEC C4): API edits go through one in-process
 * queue and the file lock, start only from a file the service would accept, and each written
 * config is applied at once through the same path as a hot reload. The watcher reads the file
 * in the same queue, so it never applies a text older than an edit already applied, and it
 * compares what it reads with the config in force, so an edit is not applied twice.
 * @module
 */
import type { PathIssue } from './config-issues.js';
import { type ConfigDocument, type ConfigEdit, editConfig } from './edit-config.js';
import { createEditQueue, type EditQueue } from './edit-queue.js';
import { type ImportResult, importServers, type SecretStash } from './import-client-config.js';
import type { AppConfig } from './schema.js';

/** Options of one {@link ConfigWriter.edit}. */
export type WriterEditOptions = {
  /**
   * The config version the edit was made on (`If-Match`), in cluster mode: when another is in
   * force the edit is refused (`conflict`, 409) and nothing is written. A file has no versions: ignored.
   */
  baseVersion?: number | undefined;
};

/** Edits of the config made by the service itself: of its file, or (cluster mode) of the database's versions. */
export type ConfigWriter = {
  /** The config file; null when the config lives in the database (cluster mode, ADR 040). */
  readonly path: string | null;
  /** Lock, edit, validate, write, apply; resolves with the applied edit. `change` may run again on a newer text. */
  edit(change: (doc: ConfigDocument) => void, options?: WriterEditOptions): Promise<ConfigEdit>;
  /** The version of the config in force (cluster mode); null for a file. */
  version(): number | null;
  /**
   * Add servers read from another client's file (names kept; replaced only with `force`);
   * their secret-looking env values go to the keystore unless `keepSecretsInline`.
   */
  importServers(
    servers: Record<string, Record<string, unknown>>,
    options: { force: boolean; keepSecretsInline?: boolean },
  ): Promise<ImportResult>;
  /** The queue every edit runs in; the watcher's reads run there too. */
  readonly queue: EditQueue;
};

/** Options of {@link createConfigWriter}. */
export type ConfigWriterDeps = {
  path: string;
  env: NodeJS.ProcessEnv;
  /** Applies a written config (the hot-reload path). */
  apply(config: AppConfig, warnings: readonly PathIssue[]): void;
  /** The config in force, when a service runs it: an edit never builds on a file it would refuse. */
  inForce?: () => AppConfig;
  /** Where imported secrets go (the home's keystore); none: they stay inline. */
  keystore?: SecretStash;
  /** Passed to every edit (a test seam: see `EditConfigOptions.beforeWrite`). */
  beforeWrite?(): Promise<void> | void;
};

/** Create the writer of one service's config file. */
export function createConfigWriter({
  path,
  env,
  apply,
  inForce,
  keystore,
  beforeWrite,
}: ConfigWriterDeps): ConfigWriter {
  const queue = createEditQueue();
  const options = {
    env,
    queue,
    afterWrite: (edit: ConfigEdit) => apply(edit.config, edit.warnings),
    ...(inForce ? { inForce } : {}),
    ...(beforeWrite ? { beforeWrite } : {}),
  };
  return {
    path,
    queue,
    edit: (change) => editConfig(path, change, options),
    version: () => null,
    importServers: (servers, { force, keepSecretsInline = false }) =>
      importServers(path, servers, { ...options, force, keepSecretsInline, keystore: keystore ?? null }),
  };
}
