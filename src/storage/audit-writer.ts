/**
 * The audit writer (SPEC X7): every MCP event goes to `mcp_audit`. `commit()` is for the
 * rows of answers to an agent: it hashes the entry at once and appends the row to the
 * journal before returning, so the row survives a kill of the process once the answer can
 * leave (issue 17); an output holding a long text is hashed after the answer has left, and
 * a second journal line completes its row (ADR 046). `record()` is for the rest
 * (notifications, lifecycle): it only queues the entry, hashed at the end of the event
 * loop's turn. A timer writes the queue in
 * multi-row INSERTs, straight on the libsql client (ADR 006), at once when `maxBatch` are
 * waiting; a write that succeeded lets the journal go. A failed write puts its rows back at
 * the front of the queue and is retried later: rows are never dropped for a failed write.
 * @module
 */
import type { Client } from '@libsql/client';
import type { Logger } from 'pino';
import { type AuditCap, type AuditCapOptions, createAuditCap } from './audit-cap.js';
import { createAuditConnection } from './audit-connection.js';
import { type AuditJournal, openAuditJournal } from './audit-journal.js';
import {
  type AuditEntry,
  type AuditRow,
  type Completion,
  createRowMaker,
  holdsLongText,
  OUTPUT_HASH_COLUMN,
} from './audit-row.js';
import type { Db } from './create-db.js';
import { auditDirections } from './schema.js';
import { type BusyRetryOptions, withBusyRetry } from './with-busy-retry.js';

export { AUDIT_ERROR_MAX, AUDIT_NAME_MAX, type AuditEntry, auditHash, boundName } from './audit-row.js';

/** Options of {@link createAuditWriter}. */
export type AuditWriterOptions = {
  log: Pick<Logger, 'warn'>;
  /**
   * How long a recorded entry may wait before the queue is written (default 1 s). Rows in
   * batches of hundreds cost SQLite half the CPU they cost in batches of tens: every INSERT
   * is compiled anew and rewrites the last page of each of the table's six B-trees.
   */
  batchMs?: number;
  /** A queue this long is written at once, without waiting for the timer. */
  maxBatch?: number;
  /** How long `close()` keeps retrying a failing write before it gives up (default 10 s). */
  closeTimeoutMs?: number;
  /**
   * `audit.storePayloads` from the config. `mcp_audit` has no payload column yet, so this
   * changes nothing for now: only the hashes are stored, whatever its value.
   */
  storePayloads?: boolean;
  now?: () => Date;
  /** How each INSERT retries a busy database before the flush counts as failed. */
  busyRetry?: BusyRetryOptions;
  /** The connection to write on (a writer connection of its own); default the database's client. */
  client?: Client;
  /**
   * Replaces the connection after a failed write (`OpenDb.reopenWriter`): a statement that
   * failed busy is never reset by libsql and would hold every later write uncommitted.
   */
  reconnect?: () => Promise<Client>;
  /** The journal's path (segments `PATH.N`); null: `commit()` only queues (a database in memory). */
  journalPath?: string | null;
  /** Where the journal's segments were kept before (`auditJournalPaths`): read back once. */
  journalBefore?: string;
  /** The byte cap (`audit.maxBytes`), enforced on the writer's connection; none without. */
  cap?: Omit<AuditCapOptions, 'log'>;
};

/** The writer: `commit`/`record` queue, `flush` writes, `close` stops the timer and drains the queue. */
export type AuditWriter = {
  /** Queue `entry`; hashed later, after the answer went out. For rows that answer no agent. */
  record(entry: AuditEntry): void;
  /**
   * Hash `entry` now and journal its row: once this returns, a kill of the process keeps the
   * row. A long text in its output is hashed after this turn of the loop, once the answer is
   * out, and its hash journaled then (ADR 046): a kill in between keeps the row without it.
   */
  commit(entry: AuditEntry): void;
  /** Write everything queued; rejects (rows kept in the queue) when a write fails. */
  flush(): Promise<void>;
  /** Stop the timer and write until the queue is empty, retrying failed writes. */
  close(): Promise<void>;
  /** Entries queued and not yet written. */
  pending(): number;
  /** The byte cap and retention deletions, run between two writes; null without a cap. */
  readonly cap: AuditCap | null;
};

// 16 bound parameters a row: stay well below SQLite's 32766 variables a statement.
const MAX_ROWS_PER_STATEMENT = 1_000;
const MAX_RETRY_DELAY_MS = 5_000;
/** The first retry of a failed write waits twice this (or twice `batchMs`, when shorter). */
const RETRY_BASE_MS = 100;

type Recorded = { entry: AuditEntry; at: Date };
/** A committed row whose output is hashed after the answer left. */
type Unhashed = { row: AuditRow; output: unknown; eventType: string };

/** Open a writer on `db`. Call `close()` before closing the database. */
export function createAuditWriter(
  db: Db,
  {
    log,
    batchMs = 1_000,
    maxBatch = 500,
    closeTimeoutMs = 10_000,
    storePayloads: _storePayloads = false,
    now = () => new Date(),
    busyRetry,
    client: firstClient = db.$client,
    reconnect,
    journalPath = null,
    journalBefore,
    cap: capOptions,
  }: AuditWriterOptions,
): AuditWriter {
  const chunkSize = Math.max(1, Math.min(maxBatch, MAX_ROWS_PER_STATEMENT));
  const retryBase = Math.max(Math.min(batchMs, RETRY_BASE_MS), 1);
  const rows = createRowMaker(log);
  const journal: AuditJournal | null = journalPath ? openAuditJournal(journalPath, journalBefore) : null;
  /** Recorded, not yet hashed: holds the payloads, so it is kept short. */
  let recorded: Recorded[] = [];
  /** Committed rows whose output hash is still to come: in the queue already, completed before any write. */
  let unhashed: Unhashed[] = [];
  /** Rows waiting for a successful write; first what a killed process left in the journal. */
  let queue: AuditRow[] = journal ? [...journal.leftover.rows] : [];
  if (journal && journal.leftover.rows.length + journal.leftover.torn > 0) {
    // A run that ended without draining its queue (kill -9, OOM, power): its answered rows.
    log.warn(
      { rows: journal.leftover.rows.length, torn: journal.leftover.torn },
      'audit rows of an earlier run found in its journal; writing them',
    );
  }
  const connection = createAuditConnection(firstClient, reconnect);
  let timer: NodeJS.Timeout | null = null;
  let failures = 0;
  let closed = false;
  let journalFailed = false;
  const { exclusive } = connection;
  const cap = capOptions ? createAuditCap(exclusive, { ...capOptions, log }) : null;

  const schedule = (delayMs: number) => {
    if (timer || closed) return;
    timer = setTimeout(() => {
      timer = null;
      flush().catch(() => {
        // Already logged by the failed write; `schedule` has set up the retry.
      });
    }, delayMs);
    timer.unref();
  };
  const queued = () => {
    if (recorded.length + queue.length >= maxBatch) {
      if (timer) clearTimeout(timer);
      timer = null;
      schedule(0);
    } else {
      schedule(batchMs);
    }
  };

  /** Journal `write`; a failure is warned about once, and the rows still go in with the next write. */
  const journaled = (write: (on: AuditJournal) => void) => {
    if (!journal) return;
    try {
      write(journal);
      journalFailed = false;
    } catch (error) {
      // Only a kill before the next write would lose what this line held.
      if (!journalFailed) log.warn({ err: error }, 'audit journal write failed; rows kept in memory until written');
      journalFailed = true;
    }
  };

  /** Complete the rows committed without their output hash, and journal those hashes. */
  const hashUnhashed = () => {
    if (unhashed.length === 0) return;
    const completions: Completion[] = unhashed.map(({ row, output, eventType }) => {
      const outputHash = rows.hash(output, eventType);
      row[OUTPUT_HASH_COLUMN] = outputHash;
      return { id: row[0] as string, outputHash };
    });
    unhashed = [];
    journaled((on) => on.complete(completions));
  };

  let hashing: NodeJS.Immediate | null = null;
  /** Hash what was recorded and let the payloads go; the rows wait for the timer. */
  const hashRecorded = () => {
    if (hashing) clearImmediate(hashing);
    hashing = null;
    hashUnhashed();
    if (recorded.length === 0) return;
    const hashed = recorded.map(({ entry, at }) => rows.row(entry, at));
    recorded = [];
    queue = queue.length === 0 ? hashed : [...queue, ...hashed];
  };

  const writeQueue = async () => {
    hashRecorded();
    // Rows journaled from here on go to a new segment; those before are in `queue`.
    const sealed = journal?.seal() ?? [];
    while (queue.length > 0) {
      const batch = queue.slice(0, chunkSize);
      queue = queue.slice(batch.length);
      try {
        // A retried batch may have been written already (a timeout after commit): ids dedupe it.
        await withBusyRetry(() => connection.insert(batch), busyRetry);
      } catch (error) {
        queue = [...batch, ...queue];
        failures += 1;
        const retryInMs = Math.min(retryBase * 2 ** failures, MAX_RETRY_DELAY_MS);
        log.warn({ err: error, pending: queue.length, retryInMs }, 'audit write failed; will retry');
        schedule(retryInMs);
        throw error;
      }
      failures = 0;
      cap?.grew(batch.length);
    }
    journal?.remove(sealed);
  };

  const flush = (): Promise<void> => exclusive(writeQueue);

  const accepts = (entry: AuditEntry): boolean => {
    if (closed) {
      log.warn({ eventType: entry.eventType }, 'audit entry recorded after close; not written');
      return false;
    }
    if (!auditDirections.includes(entry.direction)) {
      throw new TypeError(`audit direction must be client or server, got ${String(entry.direction)}`);
    }
    return true;
  };

  if (queue.length > 0) schedule(0);

  return {
    record(entry) {
      if (!accepts(entry)) return;
      recorded.push({ entry, at: entry.at ?? now() });
      // Not now, in the call: after this turn of the loop, when its answer is out.
      hashing ??= setImmediate(hashRecorded);
      queued();
    },
    commit(entry) {
      if (!accepts(entry)) return;
      // A 64 KiB result's SHA-256 was a quarter of what the gateway added to its answer.
      const later = holdsLongText(entry.output);
      const row = rows.row(entry, entry.at ?? now(), later);
      journaled((on) => on.append([row]));
      queue.push(row);
      if (later) {
        unhashed.push({ row, output: entry.output, eventType: entry.eventType });
        // Not now, in the call: after this turn of the loop, when its answer is out.
        hashing ??= setImmediate(hashRecorded);
      }
      queued();
    },
    flush,
    async close() {
      closed = true;
      await cap?.stop();
      hashRecorded();
      if (timer) clearTimeout(timer);
      timer = null;
      // Keep trying, but not forever: a database that stays unwritable must not hold up a
      // shutdown. What is left is counted in the log; journaled rows wait for the next start.
      const deadline = Date.now() + closeTimeoutMs;
      let attempt = 0;
      for (;;) {
        try {
          await flush();
          journal?.close();
          return;
        } catch {
          if (Date.now() > deadline) {
            log.warn({ dropped: recorded.length + queue.length }, 'audit rows not written before shutdown');
            journal?.close();
            return;
          }
          attempt += 1;
          await new Promise((resolve) => setTimeout(resolve, Math.min(retryBase * 2 ** attempt, MAX_RETRY_DELAY_MS)));
        }
      }
    },
    pending: () => recorded.length + queue.length,
    cap,
  };
}
