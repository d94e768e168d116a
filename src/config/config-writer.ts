/**
 * The service's writer of its config file (SPEC C4): API edits go through one in-process
 * queue and the file lock, and each written config is applied at once through the same path
 * as a hot reload. The watcher asks `claim(text)` whether a text it read is one of these
 * writes, so the service's own write is never applied a second time.
 * @module
 */
import type { PathIssue } from './config-issues.js';
import { type ConfigDocument, type ConfigEdit, editConfig } from './edit-config.js';
import { createEditQueue } from './edit-queue.js';
import { type ImportResult, importServers } from './import-client-config.js';
import type { AppConfig } from './schema.js';

/** Edits of the config file made by the service itself. */
export type ConfigWriter = {
  readonly path: string;
  /** Lock, edit, validate, write, apply; resolves with the applied edit. */
  edit(change: (doc: ConfigDocument) => void): Promise<ConfigEdit>;
  /** Add servers read from another client's file (names kept; replaced only with `force`). */
  importServers(servers: Record<string, Record<string, unknown>>, force: boolean): Promise<ImportResult>;
  /** The config a text means if this writer wrote it (it and older writes are then forgotten). */
  claim(text: string): AppConfig | undefined;
};

/** Options of {@link createConfigWriter}. */
export type ConfigWriterDeps = {
  path: string;
  env: NodeJS.ProcessEnv;
  /** Applies a written config (the hot-reload path). */
  apply(config: AppConfig, warnings: readonly PathIssue[]): void;
};

/** Create the writer of one service's config file. */
export function createConfigWriter({ path, env, apply }: ConfigWriterDeps): ConfigWriter {
  const queue = createEditQueue();
  // Texts written (or being written), oldest first, with the config each means.
  const written = new Map<string, AppConfig>();
  const hooks = {
    env,
    queue,
    beforeWrite: (edit: ConfigEdit) => {
      written.set(edit.text, edit.config);
    },
    writeFailed: (edit: ConfigEdit) => {
      written.delete(edit.text);
    },
    afterWrite: (edit: ConfigEdit) => apply(edit.config, edit.warnings),
  };
  return {
    path,
    edit: (change) => editConfig(path, change, hooks),
    importServers: (servers, force) => importServers(path, servers, { ...hooks, force }),
    claim(text) {
      const config = written.get(text);
      if (config === undefined) return undefined;
      for (const key of written.keys()) {
        written.delete(key);
        if (key === text) break;
      }
      return config;
    },
  };
}
