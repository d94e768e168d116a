/**
 * The audit's bounds on disk (issue 17): a byte cap (`audit.maxBytes`) besides the age cap
 * (`audit.retentionDays`). Over the cap, the oldest rows are deleted, a bounded batch at a
 * time between two of the writer's writes (no long lock, no lock race with the writer),
 * counted, and warned about at most once a minute; after deletions `incremental_vacuum`
 * gives the freed pages back to the file system, a bounded step at a time.
 * @module
 */
import type { Client } from '@libsql/client';
import type { Logger } from 'pino';
import { type AuditSize, auditBytesOf, measureAudit } from './audit-size.js';

/** Runs a task on the writer's connection between two of its writes. */
export type Exclusive = <T>(task: (client: Client) => Promise<T>) => Promise<T>;

/** Options of {@link createAuditCap}. */
export type AuditCapOptions = {
  /** The cap in bytes of the audit's table and indexes (read at each check: hot reload). */
  maxBytes: () => number;
  log: Pick<Logger, 'warn'>;
  /** Rows deleted a statement (about 6 ms for 1,000 here). */
  batchRows?: number;
  /** Pages given back a statement (about 6 ms for 512). */
  vacuumPages?: number;
  /** At most one warning this often; the drops in between are summed into it. */
  warnEveryMs?: number;
  /** A check at least this often while rows come in. */
  checkEveryMs?: number;
  now?: () => number;
};

/** What the metrics show. */
export type AuditCapStats = {
  /** The audit's bytes at the last check; null before the first. */
  bytes: number | null;
  maxBytes: number;
  /** Rows the byte cap has deleted since start. */
  droppedRows: number;
};

/** The caps, working through the writer's connection. */
export type AuditCap = {
  /** `rows` went in: check soon if that may have passed the cap. */
  grew(rows: number): void;
  /** Measure, and delete the oldest rows while over the cap; resolves with how many went. */
  enforce(): Promise<number>;
  /** Delete the rows older than `olderThan` (retention), in batches; resolves with how many went. */
  prune(olderThan: Date): Promise<number>;
  stats(): AuditCapStats;
  /** Stop between two statements (shutdown): resolves once nothing of the caps runs. */
  stop(): Promise<void>;
};

/** Rows of a typical audit row's size, indexes included (measured 340–400 bytes). */
const ROW_BYTES = 400;
/** Under the cap after a trim: a margin, so a trim is not needed again at the next row. */
const TRIM_TO = 0.9;

const oldestSql = (olderThan: boolean) =>
  `delete from mcp_audit where rowid in (select rowid from mcp_audit${olderThan ? ' where timestamp < ?' : ''} order by timestamp limit ?)`;

/** Create the caps over `run` (the writer's serialized connection). */
export function createAuditCap(
  run: Exclusive,
  {
    maxBytes,
    log,
    batchRows = 1_000,
    vacuumPages = 512,
    warnEveryMs = 60_000,
    checkEveryMs = 5_000,
    now = Date.now,
  }: AuditCapOptions,
): AuditCap {
  let bytes: number | null = null;
  let droppedRows = 0;
  let unwarned = 0;
  let lastWarnAt = Number.NEGATIVE_INFINITY;
  let sinceCheck = 0;
  let lastCheckAt = now();
  let enforcing: Promise<number> | null = null;
  let pruning: Promise<number> | null = null;
  let unmeasurable = false;
  let stopped = false;

  const deleteBatch = (olderThan: Date | null) =>
    run(async (client) => {
      const args = olderThan ? [olderThan.getTime(), batchRows] : [batchRows];
      return (await client.execute({ sql: oldestSql(olderThan !== null), args })).rowsAffected;
    });

  /** Give freed pages back, a step at a time, then checkpoint so the file shrinks now. */
  const giveBack = async () => {
    let free = (await run((client) => measureAudit(client, 0))).freePages;
    while (free > 0 && !stopped) {
      // executeMultiple steps the pragma to its end; execute() would move one page and leave
      // the statement open (libsql steps a statement without result columns once).
      await run((client) => client.executeMultiple(`pragma incremental_vacuum(${vacuumPages})`));
      const left = (await run((client) => measureAudit(client, 0))).freePages;
      // A database without auto_vacuum keeps its free pages: nothing more to do here.
      if (left >= free) break;
      free = left;
    }
    await run((client) => client.execute('pragma wal_checkpoint(PASSIVE)'));
  };

  const warnDropped = (dropped: number, size: AuditSize, max: number) => {
    if (dropped === 0) return;
    droppedRows += dropped;
    unwarned += dropped;
    if (now() - lastWarnAt < warnEveryMs) return;
    lastWarnAt = now();
    log.warn(
      { dropped: unwarned, auditBytes: auditBytesOf(size), maxBytes: max },
      'audit over its byte cap (audit.maxBytes); oldest rows deleted',
    );
    unwarned = 0;
  };

  const trim = async (): Promise<number> => {
    const max = maxBytes();
    let size = await run((client) => measureAudit(client));
    bytes = auditBytesOf(size);
    if (bytes <= max) return 0;
    let dropped = 0;
    while (auditBytesOf(size) > max * TRIM_TO && !stopped) {
      const gone = await deleteBatch(null);
      if (gone === 0) break;
      dropped += gone;
      // Other tables did not change meanwhile: only the page counts are read again.
      size = await run((client) => measureAudit(client, size.otherBytes));
    }
    bytes = auditBytesOf(size);
    warnDropped(dropped, size, max);
    await giveBack();
    return dropped;
  };

  const enforce = (): Promise<number> => {
    if (unmeasurable || stopped) return Promise.resolve(0);
    enforcing ??= trim()
      .catch((error: unknown) => {
        if (bytes === null) {
          // Never measured (a remote database may lack dbstat): say so once; the age cap still bounds it.
          unmeasurable = true;
          log.warn({ err: error }, 'audit size cannot be measured here; audit.maxBytes is not enforced');
        } else {
          log.warn({ err: error }, 'audit byte cap check failed; will try again');
        }
        return 0;
      })
      .finally(() => {
        enforcing = null;
      });
    return enforcing;
  };

  return {
    grew(rows) {
      sinceCheck += rows;
      const due = sinceCheck * ROW_BYTES >= maxBytes() / 32 || now() - lastCheckAt >= checkEveryMs;
      if (!due || enforcing) return;
      sinceCheck = 0;
      lastCheckAt = now();
      void enforce();
    },
    enforce,
    prune(olderThan) {
      const work = async () => {
        let removed = 0;
        while (!stopped) {
          const gone = await deleteBatch(olderThan);
          removed += gone;
          if (gone < batchRows) break;
        }
        if (removed > 0) await giveBack();
        return removed;
      };
      const pruned = work().finally(() => {
        if (pruning === pruned) pruning = null;
      });
      pruning = pruned;
      return pruned;
    },
    stats: () => ({ bytes, maxBytes: maxBytes(), droppedRows }),
    async stop() {
      stopped = true;
      await Promise.allSettled([enforcing, pruning]);
    },
  };
}
