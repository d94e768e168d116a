/**
 * `/api/tokens` (SPEC X1, section 7): create (the token is shown once), list, revoke.
 * @module
 */
import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppConfig } from '../../config/schema.js';
import { HubError } from '../../errors.js';
import { findBotBySlug } from '../../storage/bot-repo.js';
import type { Db } from '../../storage/create-db.js';
import { createToken, listTokens, revokeToken } from '../../storage/token-repo.js';
import { createApi, errorResponses, jsonBody, jsonResponse } from './api-schemas.js';

/** A new token's request body. */
export const CreateTokenSchema = z
  .object({
    name: z.string().min(1).max(100).openapi({ example: 'claude-code' }),
    bot: z.string().min(1).optional().openapi({ description: "Bind the token to this bot's view" }),
  })
  .strict()
  .openapi('NewToken');

/** A token as listed (never its secret). */
export const TokenSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    bot: z.string().nullable(),
    prefix: z.string(),
    createdAt: z.string(),
    lastUsedAt: z.string().nullable(),
    revokedAt: z.string().nullable(),
  })
  .openapi('Token');

const TokenIdParams = z.object({ id: z.string().openapi({ param: { name: 'id', in: 'path' } }) });
const tags = ['tokens'];

/** A new token: the only time its secret is shown. */
export const NewTokenSchema = z.object({ id: z.string(), token: z.string() });

const create = createRoute({
  method: 'post',
  path: '/',
  tags,
  summary: 'Make a token for the MCP endpoints (shown this once)',
  request: { body: jsonBody(CreateTokenSchema) },
  responses: {
    201: jsonResponse('The token: keep it, it is not shown again', NewTokenSchema),
    ...errorResponses(400, 413, 415),
  },
});
const list = createRoute({
  method: 'get',
  path: '/',
  tags,
  summary: 'Every token (never its secret)',
  responses: { 200: jsonResponse('The tokens', z.object({ tokens: z.array(TokenSchema) })), ...errorResponses() },
});
const revoke = createRoute({
  method: 'delete',
  path: '/{id}',
  tags,
  summary: 'Revoke a token; its open MCP sessions end',
  request: { params: TokenIdParams },
  responses: { 204: { description: 'Revoked' }, ...errorResponses(404) },
});

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
}): OpenAPIHono {
  const routes = createApi();
  routes.openapi(create, async (c) => {
    const body = c.req.valid('json');
    // A bot of the registry or of the config file; own properties only: "constructor" is not a bot.
    if (body.bot !== undefined && !Object.hasOwn(config().bots, body.bot) && !(await findBotBySlug(db, body.bot)))
      throw new HubError(
        'bad_request',
        `bot "${body.bot}" does not exist (neither in the registry nor in the config file)`,
      );
    return c.json(await createToken(db, { name: body.name, bot: body.bot ?? null }), 201);
  });
  routes.openapi(list, async (c) => c.json({ tokens: await listTokens(db) }, 200));
  routes.openapi(revoke, async (c) => {
    const { id } = c.req.valid('param');
    if (!(await revokeToken(db, id))) throw new HubError('not_found', `no live token with id "${id}"`);
    await onRevoke?.(id);
    return c.body(null, 204);
  });
  return routes;
}
