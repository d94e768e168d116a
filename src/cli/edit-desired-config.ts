/**
 * The CLI's edit of the desired config when no service answers (SPEC A4, ADR 040): in
 * cluster mode a new version in the database, which every replica running applies at once;
 * otherwise an edit of the config file, which applies at the service's next start.
 * @module
 */
import type { ConfigDocument } from '../config/edit-config.js';
import type { Target } from './resolve-target.js';

/** Make `change`; resolves with what was edited and when it applies (the note a command prints). */
export async function editDesiredConfig(target: Target, change: (doc: ConfigDocument) => void): Promise<string> {
  const { targetClusterUrl } = await import('./target-database-url.js');
  const url = await targetClusterUrl(target);
  if (url === null) {
    const path = target.configPath();
    const { editConfigFile } = await import('../config/edit-config.js');
    await editConfigFile(path, change, { env: target.env });
    return `${path} (it applies at the next start)`;
  }
  const [{ createDb }, cluster, { openConfigDocument }, { parsePostgresUrl }] = await Promise.all([
    import('../storage/create-db.js'),
    import('../cluster/index.js'),
    import('../config/open-config-document.js'),
    import('../storage/pg/postgres-url.js'),
  ]);
  const store = await createDb({ url });
  try {
    const sql = store.postgres;
    if (!sql) throw new Error('a postgres:// database opened without its pool');
    const written = await cluster.writeConfigVersion({
      sql,
      env: target.env,
      writtenBy: `bnity on ${cluster.processId(target.env)}`,
      change: (base) => {
        const doc = openConfigDocument(base);
        change(doc);
        return doc.text();
      },
    });
    if (written.changed) {
      const bus = cluster.createFleetBus({
        sql,
        replica: `cli-${cluster.processId(target.env)}`,
        log: { warn: () => {} },
      });
      await bus.publish(cluster.CONFIG_TOPIC, { version: written.version });
    }
    return `config version ${written.version} of database ${parsePostgresUrl(url).display} (every replica applies it)`;
  } finally {
    await store.close();
  }
}
