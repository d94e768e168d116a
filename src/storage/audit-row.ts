/**
 * One audit row (SPEC X7) as it is stored: an entry's payloads hashed, its names bounded,
 * its values in the column order of `mcp_audit`, ready for an INSERT or a journal line.
 * @module
 */
import { createHash, hash } from 'node:crypto';
import type { InValue } from '@libsql/client';
import { getTableColumns } from 'drizzle-orm';
import type { Logger } from 'pino';
import { canonicalJsonParts } from '../guard/canonical-json.js';
import { createListHasher } from './list-hasher.js';
import { mcpAuditTable } from './schema.js';
import { createTimeOrderedUuid } from './time-ordered-uuid.js';

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
  /** How many events of this kind the row stands for (counted, not written one by one); default one. */
  count?: number | null;
  /** The trace id of the request's span (issue 21); null or absent when traces are off. */
  traceId?: string | null;
  /** When it happened; defaults to `now()` when recorded. */
  at?: Date;
};

/** A stored row: one value per column of {@link AUDIT_COLUMNS}, in that order. */
export type AuditRow = InValue[];

/** Longest `error` text kept. */
export const AUDIT_ERROR_MAX = 500;
/** Longest name (tool, server, event, bot, client) kept; a longer one is cut and says how long it was. */
export const AUDIT_NAME_MAX = 256;
/** Columns of a journal line written before `count` was added (issue 17). */
const JOURNAL_COLUMNS_BEFORE_COUNT = 16;
/** Arrays this long are hashed as listings (item by item, cached). */
const LISTING_LENGTH = 64;
/**
 * An output holding a text this long is hashed after its answer has left (ADR 046): its
 * SHA-256 costs more than the journal line that completes its row (about 8 µs here).
 */
export const HASH_LATER_CHARS = 16 * 1024;
/** Below this many characters a value's canonical parts are joined before hashing (issue 20). */
const JOIN_TO_HASH_CHARS = 4 * 1024;
/** How deep {@link holdsLongText} looks: a tool result's `content[i].text`, a read's `contents[i].text`. */
const LONG_TEXT_DEPTH = 3;

type AuditInsert = typeof mcpAuditTable.$inferInsert;
/** The columns of `mcp_audit` in row order, from the drizzle schema so the two cannot drift. */
export const AUDIT_COLUMNS = Object.entries(getTableColumns(mcpAuditTable)).map(([key, column]) => ({
  key: key as keyof AuditInsert,
  name: column.name,
}));

/**
 * SHA-256 hex of the canonical JSON of `value` (object keys sorted at every depth), so key
 * order never changes the hash; null when `value` is `undefined` (absent). Deeply nested
 * values hash like any other (no recursion). Throws on a cycle or a BigInt.
 */
export function auditHash(value: unknown): string | null {
  if (value === undefined) return null;
  const parts = canonicalJsonParts(value);
  // A bare function or symbol has no JSON: hash a marker instead.
  if (parts === undefined) return hash('sha256', 'undefined', 'hex');
  if (parts.length === 1) return hash('sha256', parts[0] as string, 'hex');
  // The Latin-1 parts are printable ASCII, their UTF-8 bytes the same: a short value is
  // joined and hashed in one call (an object per hash and per update costs more than the copy).
  let chars = 0;
  for (let i = 0; i < parts.length; i++) chars += (parts[i] as string).length;
  if (chars < JOIN_TO_HASH_CHARS) return hash('sha256', parts.join(''), 'hex');
  // A long plain text (a 64 KiB tool result) is fed where it lies, as its Latin-1 bytes (its
  // UTF-8 ones: printable ASCII), not copied into one text first (issue 20).
  const digest = createHash('sha256');
  for (let i = 0; i < parts.length; i++) digest.update(parts[i] as string, i % 2 === 1 ? 'latin1' : 'utf8');
  return digest.digest('hex');
}

/**
 * Whether `value` holds a text of at least {@link HASH_LATER_CHARS} characters within
 * {@link LONG_TEXT_DEPTH} levels (listings aside: their hashes are cached). A few reads for
 * a small payload.
 */
export function holdsLongText(value: unknown, depth = LONG_TEXT_DEPTH): boolean {
  if (typeof value === 'string') return value.length >= HASH_LATER_CHARS;
  if (depth === 0 || value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) {
    if (value.length >= LISTING_LENGTH) return false;
    for (const item of value) if (holdsLongText(item, depth - 1)) return true;
    return false;
  }
  for (const key in value) if (holdsLongText((value as Record<string, unknown>)[key], depth - 1)) return true;
  return false;
}

/** A name cut to {@link AUDIT_NAME_MAX}, marked with its full length when cut. */
export function boundName(name: string | null | undefined): string | null {
  if (name == null) return null;
  if (name.length <= AUDIT_NAME_MAX) return name;
  const note = `… (${name.length} chars)`;
  return name.slice(0, AUDIT_NAME_MAX - note.length) + note;
}

const toSql = (value: unknown): InValue =>
  value instanceof Date ? value.getTime() : typeof value === 'boolean' ? (value ? 1 : 0) : ((value ?? null) as InValue);

/** The index of `output_hash` in a row. */
export const OUTPUT_HASH_COLUMN = AUDIT_COLUMNS.findIndex(({ key }) => key === 'outputHash');

/** Makes rows, and hashes a payload the same way for a row completed later. */
export type RowMaker = {
  /** The row of `entry`; with `outputLater`, its output hash is left null, for {@link RowMaker.hash} to fill. */
  row(entry: AuditEntry, at: Date, outputLater?: boolean): AuditRow;
  /** A payload's hash as a row holds it; null when it cannot be hashed (logged). */
  hash(value: unknown, eventType: string): string | null;
};

/** A maker of rows: hashes (listings from cache), bounds, and gives each row a time-ordered id. */
export function createRowMaker(log: Pick<Logger, 'warn'>): RowMaker {
  // Listings are large and made of the same items again: hashed item by item, from cache.
  const hashList = createListHasher();
  const hashOf = (value: unknown): string | null =>
    Array.isArray(value) && value.length >= LISTING_LENGTH ? hashList(value) : auditHash(value);
  const hash = (value: unknown, eventType: string): string | null => {
    try {
      return hashOf(value);
    } catch (error) {
      // A cycle or a BigInt: keep the event, without the hash it cannot have.
      log.warn({ err: error, eventType }, 'audit payload not hashable');
      return null;
    }
  };
  const newId = createTimeOrderedUuid();
  const row = (entry: AuditEntry, at: Date, outputLater = false): AuditRow => {
    const inputHash = hash(entry.input, entry.eventType);
    const outputHash = outputLater ? null : hash(entry.output, entry.eventType);
    const values: AuditInsert = {
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
      count: entry.count ?? null,
      traceId: entry.traceId ?? null,
    };
    return AUDIT_COLUMNS.map(({ key }) => toSql(values[key]));
  };
  return { row, hash };
}

/** A row read back from a journal line; null when the line is not one (a torn last write). */
export function parseRow(line: string): AuditRow | null {
  const value = jsonOf(line);
  // A journal written before a column was added (at the end) has shorter lines: the rest is null.
  if (!Array.isArray(value) || value.length > AUDIT_COLUMNS.length || value.length < JOURNAL_COLUMNS_BEFORE_COUNT)
    return null;
  const valid = value.every((v) => v === null || typeof v === 'string' || typeof v === 'number');
  if (!valid || typeof value[0] !== 'string') return null;
  const row = value as AuditRow;
  while (row.length < AUDIT_COLUMNS.length) row.push(null);
  return row;
}

/** A journal line that completes a row appended before it: the output hash computed after the answer left (ADR 046). */
export type Completion = { id: string; outputHash: string | null };

/** A completion read back from a journal line; null when the line is not one. */
export function parseCompletion(line: string): Completion | null {
  const value = jsonOf(line);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  const { id, outputHash } = value as Record<string, unknown>;
  if (typeof id !== 'string' || (outputHash !== null && typeof outputHash !== 'string')) return null;
  return { id, outputHash };
}

/** A journal line's JSON value; undefined when it is not JSON (a torn last write). */
function jsonOf(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}
