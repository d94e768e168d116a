/**
 * The audit writer's connection (ADR 021 §2): its multi-row INSERTs and the cap's deletions
 * run on it one after another, and a statement that failed has it replaced before the next
 * (libsql never resets a statement that failed busy, which would hold every later write
 * uncommitted).
 * @module
 */
import type { Client } from '@libsql/client';
import { AUDIT_COLUMNS, type AuditRow } from './audit-row.js';

/** The connection: INSERTs of rows, and any other task, each in turn. */
export type AuditConnection = {
  /** Insert `batch` (ids already written are skipped); rejects with the rows' count when it fails. */
  insert(batch: readonly AuditRow[]): Promise<void>;
  /** Run `task` on the connection once what was queued before it is done. */
  exclusive<T>(task: (on: Client) => Promise<T>): Promise<T>;
};

/** Drive `client`; `reconnect` gives a new connection after a failed statement (`OpenDb.reopenWriter`). */
export function createAuditConnection(client: Client, reconnect?: () => Promise<Client>): AuditConnection {
  const sqlFor = new Map<number, string>();
  const insertSql = (count: number) => {
    let sql = sqlFor.get(count);
    if (!sql) {
      const tuple = `(${AUDIT_COLUMNS.map(() => '?').join(',')})`;
      const names = AUDIT_COLUMNS.map(({ name }) => `"${name}"`).join(', ');
      sql = `insert into "mcp_audit" (${names}) values ${Array.from({ length: count }, () => tuple).join(',')} on conflict do nothing`;
      sqlFor.set(count, sql);
    }
    return sql;
  };
  let current = client;
  /** Whether a statement failed on `current` since it was opened (then it is replaced first). */
  let tainted = false;
  const fresh = async (): Promise<Client> => {
    if (tainted && reconnect) {
      current = await reconnect();
      tainted = false;
    }
    return current;
  };
  // Writes (and the cap's deletions) run one after another, so rows put back after a
  // failure keep their order and a deletion never waits for a lock the writer holds.
  let chain: Promise<unknown> = Promise.resolve();
  return {
    async insert(batch) {
      try {
        await (await fresh()).execute({ sql: insertSql(batch.length), args: batch.flat() });
      } catch (error) {
        tainted = true;
        throw new Error(`audit insert of ${batch.length} rows failed`, { cause: error });
      }
    },
    exclusive(task) {
      const run = chain.then(async () => {
        try {
          return await task(await fresh());
        } catch (error) {
          tainted = true;
          throw error;
        }
      });
      chain = run.catch(() => undefined);
      return run;
    },
  };
}
