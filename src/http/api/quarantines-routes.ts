/**
 * `GET /api/quarantines` (SPEC X5, A3): every tool held by the rug-pull pins, with the texts
 * that were pinned and the ones that replaced them (each cut to `pins.textMaxChars`, saying
 * so) and which fields changed, so an operator can compare them before
 * `POST /api/servers/{name}/tools/{tool}/approve?hash=…` lifts the hold.
 * @module
 */
import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppConfig } from '../../config/schema.js';
import { changedFields, PIN_FIELDS, type PinField, type PinText } from '../../guard/pin-texts.js';
import type { Db } from '../../storage/create-db.js';
import { listQuarantines, type Quarantine } from '../../storage/pin-repo.js';
import { createApi, errorResponses, jsonResponse } from './api-schemas.js';

/** One text a pin kept for review. */
export const PinTextSchema = z
  .object({
    text: z.string().openapi({
      description: 'The first `pins.textMaxChars` characters (a schema as compact JSON)',
    }),
    length: z.number().int().openapi({ description: 'The full length, in characters' }),
    truncated: z.boolean().openapi({ description: 'Whether `text` was cut (`length` is longer)' }),
    sha256: z.string().nullable().openapi({
      description: "SHA-256 of the whole field's canonical JSON; null for a text cut by migration 0005",
    }),
  })
  .openapi('PinText');

/** The texts a pin covers (the tool's description, title and schemas), each bounded. */
export const PinnedFieldsSchema = z
  .object({
    description: PinTextSchema.nullable(),
    title: PinTextSchema.nullable(),
    inputSchema: PinTextSchema.nullable(),
    outputSchema: PinTextSchema.nullable(),
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
    changed: z.array(z.enum(PIN_FIELDS)).nullable().openapi({
      description:
        'The fields that differ, even beyond the kept texts (by their hashes); null when the pinned texts are unknown',
    }),
    pinned: PinnedFieldsSchema.nullable().openapi({
      description: 'What was pinned; null for a pin made before texts were kept',
    }),
    pending: PinnedFieldsSchema.nullable().openapi({ description: 'What the server lists now' }),
  })
  .openapi('Quarantine');

type Texts = NonNullable<Quarantine['pinned']>;
const show = (text: PinText | null) => (text ? { ...text, truncated: text.length > text.text.length } : null);
const shown = (texts: Texts | null) =>
  texts
    ? (Object.fromEntries(PIN_FIELDS.map((field) => [field, show(texts[field])])) as Record<
        PinField,
        ReturnType<typeof show>
      >)
    : null;

/** The answer of `GET /api/quarantines`. */
export const QuarantinesSchema = z.object({
  policy: z.enum(['strict', 'warn']).openapi({ description: '`strict` hides held tools; `warn` only reports' }),
  quarantines: z.array(QuarantineSchema),
});

/** The answer of `GET /api/quarantines`, as a client reads it. */
export type QuarantinesAnswer = z.infer<typeof QuarantinesSchema>;

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
    const quarantines = rows.map((row) => ({
      ...row,
      since: row.since.toISOString(),
      changed: row.pinned && row.pending ? changedFields(row.pinned, row.pending) : null,
      pinned: shown(row.pinned),
      pending: shown(row.pending),
    }));
    return c.json({ policy: config().pins.policy, quarantines }, 200);
  });
  return routes;
}
