/**
 * `GET /api/quarantines` (SPEC X5, A3): every tool held by the rug-pull pins, with the texts
 * that were pinned and the ones that replaced them, so an operator can compare them before
 * `POST /api/servers/{name}/tools/{tool}/approve?hash=…` lifts the hold.
 * @module
 */
import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppConfig } from '../config/schema.js';
import type { Db } from '../storage/create-db.js';
import { listQuarantines } from '../storage/pin-repo.js';
import { createApi, errorResponses, jsonResponse } from './api-schemas.js';

/** The texts a pin covers (the tool's description, title and schemas). */
export const PinnedFieldsSchema = z
  .object({
    description: z.string().nullable(),
    title: z.string().nullable(),
    inputSchema: z.unknown(),
    outputSchema: z.unknown(),
  })
  .openapi('PinnedFields');

/** One held tool. */
export const QuarantineSchema = z
  .object({
    server: z.string(),
    tool: z.string(),
    hash: z.string().openapi({ description: 'The fingerprint pinned (approved) before' }),
    pendingHash: z.string().openapi({ description: 'The fingerprint that replaced it: approve with `?hash=` this' }),
    since: z.string().openapi({ description: 'When the change was seen (ISO 8601)' }),
    pinned: PinnedFieldsSchema.nullable().openapi({
      description: 'What was pinned; null for a pin made before texts were kept',
    }),
    pending: PinnedFieldsSchema.nullable().openapi({ description: 'What the server lists now' }),
  })
  .openapi('Quarantine');

/** The answer of `GET /api/quarantines`. */
export const QuarantinesSchema = z.object({
  policy: z.enum(['strict', 'warn']).openapi({ description: '`strict` hides held tools; `warn` only reports' }),
  quarantines: z.array(QuarantineSchema),
});

const list = createRoute({
  method: 'get',
  path: '/',
  tags: ['pins'],
  summary: 'Tools held by the rug-pull pins, old and new texts side by side (X5)',
  responses: { 200: jsonResponse('The held tools, oldest change first', QuarantinesSchema), ...errorResponses() },
});

/** Routes mounted at `/api/quarantines`. */
export function quarantinesRoutes({ db, config }: { db: Db; config: () => AppConfig }): OpenAPIHono {
  const routes = createApi();
  routes.openapi(list, async (c) => {
    const rows = await listQuarantines(db);
    const quarantines = rows.map((row) => ({ ...row, since: row.since.toISOString() }));
    return c.json({ policy: config().pins.policy, quarantines }, 200);
  });
  return routes;
}
