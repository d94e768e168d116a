/**
 * The audit writer (SPEC X7): every MCP event goes to `mcp_audit` without slowing the call
 * that produced it. `record()` only queues the entry; at the end of the event loop's turn
 * (after the answer has been written) the payloads are hashed and let go, so none is kept
 * alive for long; a timer writes the rows in multi-row INSERTs, straight on the libsql
 * client (ADR 006), at once when `maxBatch` are waiting. A failed write puts its rows back
 * at the front of the queue and is retried later: rows are never dropped for a failed write.
 * @module
 */
import { hash } from 'node:crypto';
import type { Client, InValue } from '@libsql/client';
import { getTableColumns } from 'drizzle-orm';
import type { Logger } from 'pino';
import { canonicalJson } from './canonical-json.js';
import type { Db } from './create-db.js';
import { createListHasher } from './list-hasher.js';
import { auditDirections, mcpAuditTable } from './schema.js';
import { createTimeOrderedUuid } from './time-ordered-uuid.js';
import { type BusyRetryOptions, withBusyRetry } from './with-busy-retry.js';

/** One MCP event, as callers report it. Payloads are hashed, never stored. */
export type AuditEntry = {
  direction: 'client' | 'server';
  eventType: string;
  serverName?: string | null;
  botId?: string | null;
  clientId?: string | null;
  /** The MCP client's `clientInfo` as `name/version`; bounded like the other names. */
  clientName?: string | null;
  toolName?: string | null;
  /** Hashed (SHA-256 of canonical JSON); `undefined` means absent and hashes to null. */
  input?: unknown;
  output?: unknown;
  durationMs?: number | null;
  success: boolean;
  error?: string | null;
  sanitized?: boolean;
  tokenUsage?: number | null;
  /** When it happened; defaults to `now()` at `record()`. */
  at?: Date;
};

/** Options of {@link createAuditWriter}. */
export type AuditWriterOptions = {
  log: Pick<Logger, 'warn'>;
  /** How long a recorded entry may wait before the queue is written. */
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
};

/** The writer: `record` queues, `flush` writes, `close` stops the timer and drains the queue. */
export type AuditWriter = {
  record(entry: AuditEntry): void;
  /** Write everything queued; rejects (rows kept in the queue) when a write fails. */
  flush(): Promise<void>;
  /** Stop the timer and write until the queue is empty, retrying failed writes. */
  close(): Promise<void>;
  /** Entries queued and not yet written. */
  pending(): number;
};

type AuditInsert = typeof mcpAuditTable.$inferInsert;

/** Longest `error` text kept. */
export const AUDIT_ERROR_MAX = 500;
/** Longest name (tool, server, event, bot, client) kept; a longer one is cut and says how long it was. */
export const AUDIT_NAME_MAX = 256;
// 17 bound parameters a row: stay well below SQLite's 32766 variables a statement.
const MAX_ROWS_PER_STATEMENT = 1_000;
const MAX_RETRY_DELAY_MS = 5_000;
/** Arrays this long are hashed as listings (item by item, cached). */
const LISTING_LENGTH = 64;

/**
 * SHA-256 hex of the canonical JSON of `value` (object keys sorted at every depth), so key
 * order never changes the hash; null when `value` is `undefined` (absent). Deeply nested
 * values hash like any other (no recursion). Throws on a cycle or a BigInt.
 */
export function auditHash(value: unknown): string | null {
  if (value === undefined) return null;
  // A bare function or symbol has no JSON: hash a marker instead.
  return hash('sha256', canonicalJson(value) ?? 'undefined', 'hex');
}

/** A name cut to {@link AUDIT_NAME_MAX}, marked with its full length when cut. */
export function boundName(name: string | null | undefined): string | null {
  if (name == null) return null;
  if (name.length <= AUDIT_NAME_MAX) return name;
  const note = `… (${name.length} chars)`;
  return name.slice(0, AUDIT_NAME_MAX - note.length) + note;
}

type Queued = { entry: AuditEntry; at: Date };
// Column order of the INSERT, from the drizzle schema so the two cannot drift.
const COLUMNS = Object.entries(getTableColumns(mcpAuditTable)) as [keyof AuditInsert, { name: string }][];
const toSql = (value: unknown): InValue =>
  value instanceof Date ? value.getTime() : typeof value === 'boolean' ? (value ? 1 : 0) : ((value ?? null) as InValue);

/** Open a writer on `db`. Call `close()` before closing the database. */
export function createAuditWriter(
  db: Db,
  {
    log,
    batchMs = 100,
    maxBatch = 500,
    closeTimeoutMs = 10_000,
    storePayloads: _storePayloads = false,
    now = () => new Date(),
    busyRetry,
    client = db.$client,
  }: AuditWriterOptions,
): AuditWriter {
  const chunkSize = Math.max(1, Math.min(maxBatch, MAX_ROWS_PER_STATEMENT));
  /** Recorded, not yet hashed: holds the payloads, so it is kept short. */
  let recorded: Queued[] = [];
  /** Hashed rows waiting for a successful write. */
  let queue: AuditInsert[] = [];
  // Listings are large and made of the same items again: hashed item by item, from cache.
  const hashList = createListHasher();
  const hashOf = (value: unknown): string | null =>
    Array.isArray(value) && value.length >= LISTING_LENGTH ? hashList(value) : auditHash(value);
  const sqlFor = new Map<number, string>();
  const insertSql = (rows: number) => {
    let sql = sqlFor.get(rows);
    if (!sql) {
      const tuple = `(${COLUMNS.map(() => '?').join(',')})`;
      const names = COLUMNS.map(([, column]) => `"${column.name}"`).join(', ');
      sql = `insert into "mcp_audit" (${names}) values ${Array.from({ length: rows }, () => tuple).join(',')} on conflict do nothing`;
      sqlFor.set(rows, sql);
    }
    return sql;
  };
  const insert = async (rows: AuditInsert[]) => {
    const args: InValue[] = [];
    for (const row of rows) for (const [key] of COLUMNS) args.push(toSql(row[key]));
    try {
      await client.execute({ sql: insertSql(rows.length), args });
    } catch (error) {
      throw new Error(`audit insert of ${rows.length} rows failed`, { cause: error });
    }
  };
  let timer: NodeJS.Timeout | null = null;
  let failures = 0;
  let closed = false;
  // Flushes run one after another, so rows put back after a failure keep their order.
  let chain: Promise<void> = Promise.resolve();

  const newId = createTimeOrderedUuid();
  const toRow = ({ entry, at }: Queued): AuditInsert => {
    let inputHash: string | null = null;
    let outputHash: string | null = null;
    try {
      inputHash = hashOf(entry.input);
      outputHash = hashOf(entry.output);
    } catch (error) {
      // A cycle or a BigInt: keep the event, without the hash it cannot have.
      log.warn({ err: error, eventType: entry.eventType }, 'audit payload not hashable');
    }
    return {
      id: newId(at.getTime()),
      direction: entry.direction,
      eventType: boundName(entry.eventType) ?? '',
      serverName: boundName(entry.serverName),
      botId: boundName(entry.botId),
      clientId: boundName(entry.clientId),
      clientName: boundName(entry.clientName),
      toolName: boundName(entry.toolName),
      inputHash,
      outputHash,
      durationMs: entry.durationMs ?? null,
      success: entry.success,
      error: entry.error == null ? null : entry.error.slice(0, AUDIT_ERROR_MAX),
      sanitized: entry.sanitized ?? false,
      tokenUsage: entry.tokenUsage ?? null,
      timestamp: at,
    };
  };

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

  let hashing: NodeJS.Immediate | null = null;
  /** Hash what was recorded and let the payloads go; the rows wait for the timer. */
  const hashRecorded = () => {
    if (hashing) clearImmediate(hashing);
    hashing = null;
    if (recorded.length === 0) return;
    const hashed = recorded.map(toRow);
    recorded = [];
    queue = queue.length === 0 ? hashed : [...queue, ...hashed];
  };

  const writeQueue = async () => {
    hashRecorded();
    while (queue.length > 0) {
      const rows = queue.slice(0, chunkSize);
      queue = queue.slice(rows.length);
      try {
        // A retried batch may have been written already (a timeout after commit): ids dedupe it.
        await withBusyRetry(() => insert(rows), busyRetry);
      } catch (error) {
        queue = [...rows, ...queue];
        failures += 1;
        const retryInMs = Math.min(Math.max(batchMs, 1) * 2 ** failures, MAX_RETRY_DELAY_MS);
        log.warn({ err: error, pending: queue.length, retryInMs }, 'audit write failed; will retry');
        schedule(retryInMs);
        throw error;
      }
      failures = 0;
    }
  };

  const flush = (): Promise<void> => {
    const run = chain.then(writeQueue);
    chain = run.catch(() => undefined);
    return run;
  };

  return {
    record(entry) {
      if (closed) {
        log.warn({ eventType: entry.eventType }, 'audit entry recorded after close; not written');
        return;
      }
      if (!auditDirections.includes(entry.direction)) {
        throw new TypeError(`audit direction must be client or server, got ${String(entry.direction)}`);
      }
      recorded.push({ entry, at: entry.at ?? now() });
      // Not now, in the call: after this turn of the loop, when its answer is out.
      hashing ??= setImmediate(hashRecorded);
      if (recorded.length + queue.length >= maxBatch) {
        if (timer) clearTimeout(timer);
        timer = null;
        schedule(0);
      } else {
        schedule(batchMs);
      }
    },
    flush,
    async close() {
      closed = true;
      hashRecorded();
      if (timer) clearTimeout(timer);
      timer = null;
      // Keep trying, but not forever: a database that stays unwritable must not hold up a
      // shutdown. What is left is counted in the log.
      const deadline = Date.now() + closeTimeoutMs;
      let attempt = 0;
      for (;;) {
        try {
          await flush();
          return;
        } catch {
          if (Date.now() > deadline) {
            log.warn({ dropped: recorded.length + queue.length }, 'audit rows not written before shutdown');
            return;
          }
          attempt += 1;
          await new Promise((resolve) =>
            setTimeout(resolve, Math.min(Math.max(batchMs, 1) * 2 ** attempt, MAX_RETRY_DELAY_MS)),
          );
        }
      }
    },
    pending: () => recorded.length + queue.length,
  };
}
