/**
 * The libsql `Client` interface over postgres.js (ADR 036), for the raw statements the
 * storage runs besides drizzle's queries: the audit writer's multi-row INSERT, and tests.
 * `?` placeholders become `$1…$n`; rows come back as libsql's rows (by index and by name).
 * What only SQLite has (interactive transactions, `sync`, scripts) is refused in one line.
 * @module
 */
import type { Client, InArgs, InStatement, InValue, ResultSet, Row } from '@libsql/client';
import type { Sql } from 'postgres';

type Runs = { unsafe: Sql['unsafe'] };

/** Run one statement, libsql style (`?` placeholders, positional arguments), on `on`. */
const runOn =
  (on: Runs) =>
  async (statement: InStatement | string, args?: InArgs): Promise<ResultSet> => {
    const text = typeof statement === 'string' ? statement : statement.sql;
    const values = typeof statement === 'string' ? args : statement.args;
    if (values !== undefined && !Array.isArray(values))
      throw new TypeError('named arguments are not supported on PostgreSQL: use ? placeholders');
    const result = await on.unsafe(numbered(text), (values ?? []).map(toParameter) as never[]);
    const records = result as unknown as Record<string, unknown>[];
    return resultSet(result.columns?.map((c) => c.name) ?? [], records, result.count);
  };

/** A libsql-shaped client whose statements run on the pool `sql`. */
export function pgClient(sql: Sql): Client {
  const run = runOn(sql);
  const unsupported = (what: string) => () => Promise.reject(new Error(`${what} is not supported on PostgreSQL`));
  let closed = false;
  return {
    execute: run as Client['execute'],
    batch: (statements) =>
      sql.begin(async (tx) => {
        const inTx = runOn(tx as unknown as Runs);
        const out: ResultSet[] = [];
        for (const s of statements) out.push(await (Array.isArray(s) ? inTx(s[0], s[1]) : inTx(s)));
        return out;
      }) as Promise<ResultSet[]>,
    migrate: unsupported('migrate'),
    transaction: unsupported('an interactive transaction') as Client['transaction'],
    executeMultiple: unsupported('executeMultiple'),
    sync: unsupported('sync'),
    close: () => {
      closed = true;
    },
    reconnect: () => {},
    get closed() {
      return closed;
    },
    protocol: 'postgres',
  };
}

/** `?` placeholders outside quotes and identifiers become `$1…$n`. */
export function numbered(text: string): string {
  let out = '';
  let n = 0;
  let quote: string | null = null;
  for (const ch of text) {
    if (quote) {
      if (ch === quote) quote = null;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
    } else if (ch === '?') {
      n += 1;
      out += `$${n}`;
      continue;
    }
    out += ch;
  }
  return out;
}

const toParameter = (value: InValue): unknown => {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value instanceof Date) return value.getTime();
  if (typeof value === 'bigint') return value.toString();
  return value;
};

function resultSet(columns: string[], records: Record<string, unknown>[], count: number): ResultSet {
  const rows = records.map((record) => {
    const row: Record<string | number, unknown> = {};
    columns.forEach((name, i) => {
      row[i] = record[name];
      row[name] = record[name];
    });
    Object.defineProperty(row, 'length', { value: columns.length, enumerable: false });
    return row as unknown as Row;
  });
  return {
    columns,
    columnTypes: columns.map(() => ''),
    rows,
    rowsAffected: count,
    lastInsertRowid: undefined,
    toJSON: () => ({ columns, rows: records, rowsAffected: count }),
  };
}
