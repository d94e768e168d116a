/**
 * `GET /api/audit` (SPEC X7, section 7): the audit log, filtered, newest first.
 * @module
 */
import { Hono } from 'hono';
import { z } from 'zod';
import { AUDIT_MAX_LIMIT, queryAudit } from '../storage/audit-query.js';
import type { Db } from '../storage/create-db.js';
import { auditDirections } from '../storage/schema.js';

/** An instant in a query string: epoch milliseconds, or an ISO 8601 date or date-time. */
const Instant = z.string().transform((value, ctx) => {
  const date = /^\d+$/.test(value)
    ? new Date(Number(value))
    : /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(value)
      ? new Date(value)
      : null;
  if (!date || Number.isNaN(date.getTime())) {
    ctx.addIssue({ code: 'custom', message: 'expected an ISO 8601 date or epoch milliseconds' });
    return z.NEVER;
  }
  return date;
});

const name = z.string().min(1).max(200).optional();

const AuditQuerySchema = z.object({
  server: name,
  bot: name,
  client: name,
  direction: z.enum(auditDirections).optional(),
  event: name,
  tool: name,
  since: Instant.optional(),
  until: Instant.optional(),
  limit: z
    .string()
    .regex(/^\d+$/, 'expected a whole number')
    .transform(Number)
    .pipe(z.number().int().min(1).max(AUDIT_MAX_LIMIT))
    .optional(),
});

/** Routes mounted at `/api/audit`. */
export function auditRoutes({ db }: { db: Db }): Hono {
  const routes = new Hono();
  routes.get('/', async (c) => {
    const parsed = AuditQuerySchema.safeParse(c.req.query());
    if (!parsed.success) {
      const issues = parsed.error.issues.map((i) => ({ field: i.path.join('.'), message: i.message }));
      return c.json({ error: { code: 'bad_request', message: 'invalid query', issues } }, 400);
    }
    return c.json({ entries: await queryAudit(db, parsed.data) });
  });
  return routes;
}
