/**
 * The PostgreSQL URL boternity is given (ADR 036), checked before anything connects, and the
 * one-line messages of a failed connection. A message names the database as
 * `postgres://user@host:port/name`: never with its password.
 * @module
 */
import { DatabaseError } from '../../errors.js';

/** Whether `url` names a PostgreSQL database (`postgres://` or `postgresql://`). */
export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url);
}

/** A checked URL: `display` is what messages show. */
export type PostgresTarget = { display: string; host: string; port: number; database: string; user: string };

const EXAMPLE = 'postgres://USER:PASSWORD@HOST:5432/DATABASE';

/** Check `url`; a malformed one is a {@link DatabaseError} that says what is wrong. */
export function parsePostgresUrl(url: string): PostgresTarget {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new DatabaseError(`the database URL is not a valid URL: give ${EXAMPLE}`);
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:')
    throw new DatabaseError(`the database URL must start with postgres:// (got ${parsed.protocol}//)`);
  const host = decodeURIComponent(parsed.hostname);
  const database = decodeURIComponent(parsed.pathname.replace(/^\//, ''));
  const user = decodeURIComponent(parsed.username);
  const port = parsed.port ? Number(parsed.port) : 5432;
  const display = `postgres://${user ? `${user}@` : ''}${parsed.host}/${database}`;
  if (!host) throw new DatabaseError(`the database URL ${display} has no host: give ${EXAMPLE}`);
  if (!database) throw new DatabaseError(`the database URL ${display} names no database: give ${EXAMPLE}`);
  if (database.includes('/')) throw new DatabaseError(`the database URL ${display} has a path, not a database name`);
  return { display, host, port, database, user };
}

/** One line for an error of the first connection to `display`. */
export function describeConnectError(error: unknown, display: string): string {
  const { code, message } = error as { code?: string; message?: string };
  const where = `database ${display}`;
  switch (code) {
    case '28P01':
    case '28000':
      return `${where}: the server refused the user or password (${message}); check them in the URL`;
    case '3D000':
      return `${where}: ${message}; create it (createdb) or fix the URL`;
    case 'ECONNREFUSED':
      return `${where}: nothing answers there (connection refused); is PostgreSQL running, on that port?`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `${where}: host not found; check the host in the URL`;
    case 'CONNECT_TIMEOUT':
      return `${where}: no answer within the connect timeout; check the host, port and firewall`;
    default:
      return `${where}: cannot connect: ${message ?? String(error)}`;
  }
}
