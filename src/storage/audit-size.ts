/**
 * How big the audit is on disk (issue 17), measured cheaply: the database's pages in use
 * (two pragmas that read its header) less the pages of every other table and index
 * (`dbstat` over those alone, small; walking the audit's own pages would take about 0.2 s
 * for 340 MB). Pages the audit freed but the file still holds are not counted.
 * @module
 */
import type { Client } from '@libsql/client';

/** The database's page size, its pages in use, and the bytes of everything but the audit. */
export type AuditSize = { pageSize: number; usedPages: number; freePages: number; otherBytes: number };

const PAGES_SQL = `select (select page_size from pragma_page_size()) as page_size,
  (select page_count from pragma_page_count()) as pages,
  (select freelist_count from pragma_freelist_count()) as free`;
const OTHER_SQL = `select coalesce(sum(pgsize), 0) as bytes from dbstat('main', 1)
  where name in (select name from sqlite_schema where tbl_name <> 'mcp_audit')`;

/** The bytes the audit's table and indexes take, by {@link AuditSize}. */
export const auditBytesOf = ({ pageSize, usedPages, otherBytes }: AuditSize): number =>
  Math.max(0, usedPages * pageSize - otherBytes);

/** Read the page figures; `otherBytes` is measured again only when not given. */
export async function measureAudit(client: Client, otherBytes?: number): Promise<AuditSize> {
  const pages = (await client.execute(PAGES_SQL)).rows[0];
  const pageSize = Number(pages?.page_size ?? 0);
  const total = Number(pages?.pages ?? 0);
  const freePages = Number(pages?.free ?? 0);
  const other = otherBytes ?? Number((await client.execute(OTHER_SQL)).rows[0]?.bytes ?? 0);
  return { pageSize, usedPages: total - freePages, freePages, otherBytes: other };
}
