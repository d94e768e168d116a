/**
 * `bnity config export [FILE]` and `bnity config import FILE` (issue 22 part 2, ADR 040): move
 * the desired config out of and into where it lives. In cluster mode (the database is
 * PostgreSQL) that is the database: export writes its latest version, import writes the file
 * as a new version, which every replica applies at once. Otherwise it is the config file:
 * export copies it, import replaces it with a checked edit, under its lock, which a running
 * service applies as any change of its file. An import is validated whole first: a file that
 * is unreadable, not a valid config, or names no servers while some run is refused in one line
 * and nothing changes. No running service is needed either way.
 * @module
 */
import type { Sql } from 'postgres';
import { HubError } from '../errors.js';
import { resolveTarget, type Target, type TargetFlags } from './resolve-target.js';

/** Flags of both commands (no `--url`: they work on the config's store, not through a service). */
export type ConfigFlags = Omit<TargetFlags, 'url'>;

/** `bnity config export [FILE]`: the config's text to FILE (0600), else to stdout. */
export async function configExport(file: string | undefined, flags: ConfigFlags, env: NodeJS.ProcessEnv) {
  const target = await resolveTarget(flags, env);
  const { text, from } = await onStore(target, {
    cluster: async (sql, display) => {
      const { latestConfigVersion } = await import('../cluster/index.js');
      const latest = await latestConfigVersion(sql);
      if (!latest)
        throw new HubError(
          'not_found',
          `database ${display} holds no config yet: 'bnity config import FILE' (or a first 'bnity serve --config FILE') puts one there`,
        );
      return { text: latest.document, from: `config version ${latest.version} of database ${display}` };
    },
    file: async (path) => ({ text: await (await import('../config/load-config.js')).readConfigText(path), from: path }),
  });
  if (file === undefined) {
    process.stdout.write(text);
    return 0;
  }
  const { writeFileAtomic } = await import('../config/write-file-atomic.js');
  const { CONFIG_FILE_MODE } = await import('../config/edit-config.js');
  await writeFileAtomic(file, text, { mode: CONFIG_FILE_MODE });
  say(target, { exported: file, from }, `exported ${from} to ${file}`);
  return 0;
}

/** `bnity config import FILE`: FILE, validated whole, becomes the config (a new version in cluster mode). */
export async function configImport(file: string, flags: ConfigFlags, env: NodeJS.ProcessEnv) {
  const target = await resolveTarget(flags, env);
  const { parseConfigTextDetailed, readConfigText } = await import('../config/load-config.js');
  const text = await readConfigText(file);
  // Validated as the file it is first: a refusal names its lines, and nothing is opened or written.
  const parsed = parseConfigTextDetailed(text, file, env);
  const done = await onStore<{ version: number | null; line: string }>(target, {
    cluster: async (sql, display) => {
      const { createFleetBus, CONFIG_TOPIC, processId, writeConfigVersion } = await import('../cluster/index.js');
      const written = await writeConfigVersion({
        sql,
        env,
        change: () => text,
        writtenBy: `bnity config import ${file}`,
        label: file,
      });
      if (written.changed) {
        const bus = createFleetBus({ sql, replica: `cli-${processId(env)}`, log: quietLog });
        await bus.publish(CONFIG_TOPIC, { version: written.version });
      }
      return {
        version: written.version,
        line: written.changed
          ? `imported ${file} into database ${display} as config version ${written.version}; every replica applies it`
          : `${file} is config version ${written.version} of database ${display} already: nothing changed`,
      };
    },
    file: async (path) => {
      const { existsSync } = await import('node:fs');
      const { refuseReload } = await import('../config/refuse-reload.js');
      const current = existsSync(path) ? (await import('../config/load-config.js')).loadConfig(path, env) : null;
      const refusal = refuseReload(parsed, await current, file);
      if (refusal !== null) throw refusal;
      const { editConfig } = await import('../config/edit-config.js');
      await editConfig(path, (doc) => doc.replaceAll(text), { env });
      return {
        version: null,
        line: `imported ${file} into ${path}; a running service applies it as any change of its file`,
      };
    },
  });
  say(target, { imported: file, version: done.version }, done.line);
  return 0;
}

/** Run `cluster` on the PostgreSQL database of `target`, else `file` on its config file. */
async function onStore<T>(
  target: Target,
  on: { cluster(sql: Sql, display: string): Promise<T>; file(path: string): Promise<T> },
): Promise<T> {
  const { targetClusterUrl } = await import('./target-database-url.js');
  const url = await targetClusterUrl(target);
  if (url === null) return on.file(target.configPath());
  const { parsePostgresUrl } = await import('../storage/pg/postgres-url.js');
  const { createDb } = await import('../storage/create-db.js');
  const store = await createDb({ url });
  try {
    if (!store.postgres) throw new HubError('internal', 'a postgres:// database opened without its pool');
    return await on.cluster(store.postgres, parsePostgresUrl(url).display);
  } finally {
    await store.close();
  }
}

/** Print `line`, or `json` with `--json`. */
function say(target: Target, json: Record<string, unknown>, line: string): void {
  process.stdout.write(target.json ? `${JSON.stringify(json)}\n` : `${line}\n`);
}

/** The bus's warnings have no reader in a one-shot command; its failures throw. */
const quietLog = { warn: () => undefined };
