/**
 * `/api/tokens` (SPEC X1, section 7): create (the token is shown once), list, revoke.
 * @module
 */
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppConfig } from '../config/schema.js';
import { HubError } from '../errors.js';
import type { Db } from '../storage/create-db.js';
import { createToken, listTokens, revokeToken } from '../storage/token-repo.js';

const CreateTokenSchema = z.object({ name: z.string().min(1).max(100), bot: z.string().min(1).optional() }).strict();

/** Routes mounted at `/api/tokens`. */
export function tokensRoutes({
  db,
  config,
  onRevoke,
}: {
  db: Db;
  config: () => AppConfig;
  /** Ends what the token has open (its MCP sessions and their streams). */
  onRevoke?: (id: string) => Promise<unknown>;
}): Hono {
  const routes = new Hono();
  routes.post('/', async (c) => {
    const body = CreateTokenSchema.parse(await c.req.json().catch(() => null));
    if (body.bot && !config().bots[body.bot]) throw new HubError('bad_request', `bot "${body.bot}" is not configured`);
    return c.json(await createToken(db, { name: body.name, bot: body.bot ?? null }), 201);
  });
  routes.get('/', async (c) => c.json({ tokens: await listTokens(db) }));
  routes.delete('/:id', async (c) => {
    const id = c.req.param('id');
    if (!(await revokeToken(db, id))) throw new HubError('not_found', `no live token with id "${id}"`);
    await onRevoke?.(id);
    return c.body(null, 204);
  });
  return routes;
}
