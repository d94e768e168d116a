/**
 * `/api/credentials` (SPEC C6, A3): the keystore from the API, write-only. A secret goes in
 * with `PUT` and never comes out: the list holds the names only, and no answer, error or
 * log line carries a value. The keystore is read at each connect, so a secret set here
 * applies at a server's next connect (an add made after it uses it at once).
 * @module
 */
import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { HubError } from '../../errors.js';
import type { Keystore } from '../../storage/keystore.js';
import { createApi, errorResponses, jsonBody, jsonResponse } from './api-schemas.js';

/** What the routes use of the keystore. */
export type CredentialStore = Pick<Keystore, 'set' | 'remove' | 'names'>;

/** A credential as listed: its name, never its value. */
export const CredentialSchema = z
  .object({ name: z.string().openapi({ example: 'github-token' }) })
  .openapi('Credential');

/** The body of `PUT /api/credentials/{name}`. */
export const SetCredentialSchema = z
  .object({ value: z.string().min(1).openapi({ description: 'The secret; stored encrypted, never shown again' }) })
  .strict()
  .openapi('SetCredential');

const NameParams = z.object({
  name: z.string().openapi({
    param: { name: 'name', in: 'path' },
    example: 'github-token',
    description: '1 to 64 of A-Z a-z 0-9 _ . -',
  }),
});
const tags = ['credentials'];

const list = createRoute({
  method: 'get',
  path: '/',
  tags,
  summary: 'The keystore entries, by name (never a value)',
  responses: {
    200: jsonResponse('The names, sorted', z.object({ credentials: z.array(CredentialSchema) })),
    ...errorResponses(),
  },
});
const set = createRoute({
  method: 'put',
  path: '/{name}',
  tags,
  summary: 'Store (or replace) a secret; it is never shown again',
  request: { params: NameParams, body: jsonBody(SetCredentialSchema) },
  responses: { 204: { description: 'Stored' }, ...errorResponses(400, 413, 415) },
});
const remove = createRoute({
  method: 'delete',
  path: '/{name}',
  tags,
  summary: 'Remove a secret; servers naming it fail their next connect',
  request: { params: NameParams },
  responses: { 204: { description: 'Removed' }, ...errorResponses(400, 404) },
});

/** Routes mounted at `/api/credentials`. */
export function credentialsRoutes({ keystore }: { keystore: CredentialStore }): OpenAPIHono {
  const routes = createApi();
  routes.openapi(list, async (c) => c.json({ credentials: (await keystore.names()).map((name) => ({ name })) }, 200));
  routes.openapi(set, async (c) => {
    // The keystore checks the name (one line naming the allowed characters) before it writes.
    await keystore.set(c.req.valid('param').name, c.req.valid('json').value);
    return c.body(null, 204);
  });
  routes.openapi(remove, async (c) => {
    const { name } = c.req.valid('param');
    if (!(await keystore.remove(name))) throw new HubError('not_found', `credential "${name}" is not in the keystore`);
    return c.body(null, 204);
  });
  return routes;
}
