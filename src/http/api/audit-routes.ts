/**
 * `GET /api/audit` (SPEC X7, section 7): the audit log, filtered, newest first.
 * @module
 */
import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { readAuditCursor } from '../../storage/audit-cursor.js';
import { AUDIT_MAX_LIMIT, queryAuditPage } from '../../storage/audit-query.js';
import { AUDIT_NAME_MAX } from '../../storage/audit-writer.js';
import type { Db } from '../../storage/create-db.js';
import { auditDirections } from '../../storage/schema.js';
import { createApi, errorResponses, jsonResponse, wholeNumberQuery } from './api-schemas.js';

/** An instant in a query string: epoch milliseconds, or an ISO 8601 date or date-time. */
const Instant = z
  .string()
  .openapi({ example: '2026-01-31T12:00:00Z' })
  .transform((value, ctx) => {
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

/** A page's `nextCursor`, given back as `before` for the next page. */
const Cursor = z
  .string()
  .openapi({ description: "The `nextCursor` of the previous page: the entries after that page's last" })
  .transform((value, ctx) => {
    const cursor = readAuditCursor(value);
    if (!cursor) {
      ctx.addIssue({ code: 'custom', message: "expected a previous page's nextCursor" });
      return z.NEVER;
    }
    return cursor;
  });

/** One audit row. */
export const EntrySchema = z
  .object({
    id: z.string(),
    timestamp: z.string(),
    direction: z.enum(auditDirections),
    eventType: z.string(),
    serverName: z.string().nullable(),
    botId: z.string().nullable(),
    clientId: z.string().nullable(),
    clientName: z.string().nullable().openapi({ description: "The MCP client's clientInfo as name/version" }),
    toolName: z.string().nullable(),
    inputHash: z.string().nullable(),
    outputHash: z.string().nullable(),
    durationMs: z.number().nullable(),
    success: z.boolean(),
    error: z.string().nullable(),
    sanitized: z.boolean(),
    tokenUsage: z.number().nullable(),
    count: z.number().int().openapi({
      description:
        'How many events the row stands for: 1, or those counted in one window (notifications no agent received)',
    }),
    traceId: z.string().nullable().openapi({
      description: "The request's OpenTelemetry trace id (32 hex digits) when traces are on; null otherwise",
    }),
  })
  .openapi('AuditEntry');

/** The filters of `GET /api/audit`. */
export const AuditQuerySchema = z.object({
  server: name,
  bot: name,
  client: name,
  // As stored: up to the audit's bound on names.
  clientName: z.string().min(1).max(AUDIT_NAME_MAX).optional(),
  direction: z.enum(auditDirections).optional(),
  event: name,
  tool: name,
  since: Instant.optional(),
  until: Instant.optional(),
  limit: wholeNumberQuery(1, AUDIT_MAX_LIMIT).optional(),
  success: z
    .enum(['true', 'false'])
    .transform((value) => value === 'true')
    .optional()
    .openapi({ description: '`true`: the entries that succeeded; `false`: those that failed' }),
  before: Cursor.optional(),
});

/** A page of the log. */
export const AuditPageSchema = z.object({
  entries: z.array(EntrySchema),
  nextCursor: z.string().nullable().openapi({
    description: 'Pass it as `before` for the next (older) page; `null` when no older entry matches',
    example: '1763739076856.617ce87d-8ef5-4f4c-a611-56d7bbf90b42',
  }),
});

const query = createRoute({
  method: 'get',
  path: '/',
  tags: ['audit'],
  summary: 'The audit log (X7), filtered, newest first',
  description:
    "`bot` matches the rows made for that bot and the lifecycle rows (`server_connected`, `server_disconnected`, `server_reconnect_scheduled`, `server_disabled`) of the servers in its view. Past `limit`, page with `before`: the previous page's `nextCursor`.",
  request: { query: AuditQuerySchema },
  responses: { 200: jsonResponse('A page of entries', AuditPageSchema), ...errorResponses(400) },
});

/** Routes mounted at `/api/audit`. */
export function auditRoutes({
  db,
  botServers,
  written,
}: {
  db: Db;
  /** The servers of bot `slug`'s view: `?bot=` shows their lifecycle rows too. */
  botServers?: (slug: string) => readonly string[];
  /** Writes the audit's queue (`AuditWriter.flush`): a page holds every row recorded before it was asked for. */
  written?: () => Promise<void>;
}): OpenAPIHono {
  const routes = createApi();
  routes.openapi(query, async (c) => {
    const filters = c.req.valid('query');
    // The writer batches its rows for up to a second. A write that fails keeps them queued
    // (and says so in the log): the page then shows what the database holds.
    await written?.().catch(() => undefined);
    const servers = filters.bot !== undefined && botServers ? botServers(filters.bot) : undefined;
    return c.json(await queryAuditPage(db, { ...filters, ...(servers ? { botServers: servers } : {}) }), 200);
  });
  return routes;
}
