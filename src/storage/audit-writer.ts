/**
 * The audit writer (SPEC X7): every MCP event goes to `mcp_audit` without slowing the call
 * that produced it. `record()` is synchronous: it hashes the payloads and queues a row; a
 * timer writes the queue in multi-row INSERTs. A failed write puts its rows back at the
 * front of the queue and is retried later: rows are never dropped for a failed write.
 * @module
 */
import { createHash, randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Db } from './create-db.js';
import { auditDirections, mcpAuditTable } from './schema.js';
import { type BusyRetryOptions, withBusyRetry } from './with-busy-retry.js';

/** One MCP event, as callers report it. Payloads are hashed, never stored. */
export type AuditEntry = {
  direction: 'client' | 'server';
  eventType: string;
  serverName?: string | null;
  botId?: string | null;
  clientId?: string | null;
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
// 16 bound parameters a row: stay well below SQLite's 32766 variables a statement.
const MAX_ROWS_PER_STATEMENT = 1_000;
const MAX_RETRY_DELAY_MS = 5_000;

/**
 * SHA-256 hex of the canonical JSON of `value` (object keys sorted at every depth), so key
 * order never changes the hash; null when `value` is `undefined` (absent).
 */
export function auditHash(value: unknown): string | null {
  if (value === undefined) return null;
  const json = JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
  // JSON.stringify gives undefined for a bare function or symbol: hash a marker instead.
  return createHash('sha256')
    .update(json ?? 'undefined', 'utf8')
    .digest('hex');
}

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
  }: AuditWriterOptions,
): AuditWriter {
  const chunkSize = Math.max(1, Math.min(maxBatch, MAX_ROWS_PER_STATEMENT));
  let queue: AuditInsert[] = [];
  let timer: NodeJS.Timeout | null = null;
  let failures = 0;
  let closed = false;
  // Flushes run one after another, so rows put back after a failure keep their order.
  let chain: Promise<void> = Promise.resolve();

  const toRow = (entry: AuditEntry): AuditInsert => {
    if (!auditDirections.includes(entry.direction)) {
      throw new TypeError(`audit direction must be client or server, got ${String(entry.direction)}`);
    }
    let inputHash: string | null = null;
    let outputHash: string | null = null;
    try {
      inputHash = auditHash(entry.input);
      outputHash = auditHash(entry.output);
    } catch (error) {
      // A cycle or a BigInt: keep the event, without the hash it cannot have.
      log.warn({ err: error, eventType: entry.eventType }, 'audit payload not hashable');
    }
    return {
      id: randomUUID(),
      direction: entry.direction,
      eventType: entry.eventType,
      serverName: entry.serverName ?? null,
      botId: entry.botId ?? null,
      clientId: entry.clientId ?? null,
      toolName: entry.toolName ?? null,
      inputHash,
      outputHash,
      durationMs: entry.durationMs ?? null,
      success: entry.success,
      error: entry.error == null ? null : entry.error.slice(0, AUDIT_ERROR_MAX),
      sanitized: entry.sanitized ?? false,
      tokenUsage: entry.tokenUsage ?? null,
      timestamp: entry.at ?? now(),
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

  const writeQueue = async () => {
    while (queue.length > 0) {
      const rows = queue.slice(0, chunkSize);
      queue = queue.slice(rows.length);
      try {
        // A retried batch may have been written already (a timeout after commit): ids dedupe it.
        await withBusyRetry(() => db.insert(mcpAuditTable).values(rows).onConflictDoNothing(), busyRetry);
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
      queue.push(toRow(entry));
      if (queue.length >= maxBatch) {
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
            log.warn({ dropped: queue.length }, 'audit rows not written before shutdown');
            return;
          }
          attempt += 1;
          await new Promise((resolve) =>
            setTimeout(resolve, Math.min(Math.max(batchMs, 1) * 2 ** attempt, MAX_RETRY_DELAY_MS)),
          );
        }
      }
    },
    pending: () => queue.length,
  };
}
